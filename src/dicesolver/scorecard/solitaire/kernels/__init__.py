"""The solitaire judge's kernels: the solve, the answers, the breakdown, the distribution and the policy
table."""
