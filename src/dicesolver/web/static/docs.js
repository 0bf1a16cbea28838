// The API's endpoints listed from /openapi.json: served with the package, so it works offline and runs no
// third-party code in the app's origin.
"use strict";

const text = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const ref = (schema) => {
  if (!schema) return "";
  if (schema.$ref) return schema.$ref.split("/").pop();
  if (schema.type === "array") return `list of ${ref(schema.items)}`;
  if (schema.anyOf) return schema.anyOf.map(ref).join(" or ");
  return schema.type || "";
};

async function list() {
  const api = await (await fetch("/openapi.json")).json();
  const rows = [];
  for (const [path, methods] of Object.entries(api.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const params = (op.parameters || []).map((p) => `${p.name} (${p.in}${p.required ? ", required" : ""})`);
      const body = op.requestBody ? ref(op.requestBody.content?.["application/json"]?.schema) : "";
      const answers = Object.entries(op.responses || {}).map(([code, r]) =>
        `${code}: ${text(ref(r.content?.["application/json"]?.schema) || r.description)}`);
      rows.push(`<section class="endpoint"><h2><code>${text(method.toUpperCase())} ${text(path)}</code></h2>
        <p>${text(op.summary || "")}</p>
        ${params.length ? `<p>parameters: ${text(params.join(", "))}</p>` : ""}
        ${body ? `<p>body: ${text(body)}</p>` : ""}
        <p>answers: ${answers.join("; ")}</p></section>`);
    }
  }
  const models = Object.entries(api.components?.schemas || {}).map(([name, s]) =>
    `<section class="model"><h3>${text(name)}</h3><ul>${Object.entries(s.properties || {}).map(([field, f]) =>
      `<li><code>${text(field)}</code> ${text(ref(f))}${f.description ? `: ${text(f.description)}` : ""}</li>`).join("")}</ul></section>`);
  document.getElementById("endpoints").innerHTML = rows.join("") + "<h2>Models</h2>" + models.join("");
}

list().catch((err) => { document.getElementById("endpoints").textContent = `could not read the schema: ${err}`; });
