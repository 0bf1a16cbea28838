"""The colours of every figure: Okabe and Ito's palette, told apart with every common colour-vision deficiency,
and a colour map made for colour-blind readers for probabilities."""

BLUE, ORANGE, GREEN, VERMILION, SKY, PURPLE, YELLOW = "#0072B2", "#E69F00", "#009E73", "#D55E00", "#56B4E9", "#CC79A7", "#F0E442"
COLORS = [BLUE, VERMILION, GREEN, ORANGE, PURPLE, SKY, YELLOW, "#555555", "black"]  # one per strategy or player
CHANCE_MAP = "cividis"  # probabilities from 0 (dark blue) to 1 (light yellow)
