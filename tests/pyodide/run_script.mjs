// Runs a script of the xlwings Lite bundle inside real Pyodide under Node, offline, through xlwings' own
// custom_scripts_call (tests/lite_driver.py run_script). The job (JSON on stdin) gives the bundle, the script's
// name, the workbook as the Lite client sends it, the form's arguments and each sheet's cells; the report goes to
// stdout. A job with "runs" (each a script, book, args and cells) runs them one after the other in the same
// Pyodide, as xlwings Lite keeps one, and reports each.
//
// xlwings Lite's client (its JavaScript, inside Excel) is not part of the xlwings package: the reads a script
// makes on demand reach it as js.xlwings.<name>(...). This stand-in answers them from the job's cells the way
// Office.js reports a range: formulas (a cell without one reports its value), values, the used range's address.
// Writes are not applied here: the script queues them and returns them (the report's actions).
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { loadPyodide } from "pyodide";

const text = readFileSync(0, "utf8");
const job = JSON.parse(text);
const pyodide = await loadPyodide();
const home = "/home/pyodide";

function copyPythonFiles(folder, target) {
  pyodide.FS.mkdirTree(target);
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const source = join(folder, entry.name);
    if (entry.isDirectory() && entry.name !== "__pycache__") {
      copyPythonFiles(source, join(target, entry.name));
    } else if (entry.isFile() && entry.name.endsWith(".py")) {
      pyodide.FS.writeFile(join(target, entry.name), readFileSync(source, "utf8"));
    }
  }
}

function columnNumber(letters) {
  return [...letters].reduce((n, c) => n * 26 + c.charCodeAt(0) - 64, 0);
}

function columnLetters(n) {
  let letters = "";
  for (; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

// "$B$6:$D$8" or "B6" -> 1-based [top, left, bottom, right]
function bounds(address) {
  const [first, last = first] = address.replaceAll("$", "").split(":");
  const cell = (a) => {
    const [, letters, digits] = a.match(/^([A-Z]+)(\d+)$/);
    return [Number(digits), columnNumber(letters)];
  };
  return [...cell(first), ...cell(last)];
}

let current = job;

function cells(sheet, key, address) {
  const grid = current.cells[sheet][key];
  const [top, left, bottom, right] = bounds(address);
  const rows = [];
  for (let r = top; r <= bottom; r++) {
    const row = [];
    for (let c = left; c <= right; c++) row.push(grid[r - 1]?.[c - 1] ?? "");
    rows.push(row);
  }
  return rows;
}

const reads = [];
globalThis.xlwings = {
  async getUsedRangeAddress(sheet, valuesOnly) {
    reads.push(["getUsedRangeAddress", sheet, valuesOnly]);
    const grid = current.cells[sheet].values;
    let bottom = 0;
    let right = 0;
    grid.forEach((row, r) =>
      row.forEach((value, c) => {
        if (value !== "" && value !== null) {
          bottom = Math.max(bottom, r + 1);
          right = Math.max(right, c + 1);
        }
      }),
    );
    return bottom ? `A1:${columnLetters(right)}${bottom}` : null;
  },
  async getRangeData(sheet, address, keys) {
    reads.push(["getRangeData", sheet, address, keys.toJs ? keys.toJs() : keys]);
    return Object.fromEntries([...keys].map((key) => [key, cells(sheet, key, address)]));
  },
  async getRangeValues(sheet, address) {
    reads.push(["getRangeValues", sheet, address]);
    return cells(sheet, "values", address);
  },
  async runActions() {
    throw new Error("the script wrote before it had read everything");
  },
};

copyPythonFiles(job.xlwings, join(home, "xlwings"));
pyodide.FS.writeFile(join(home, "lite_driver.py"), readFileSync(job.driver, "utf8"));
pyodide.FS.writeFile(join(home, "main.py"), readFileSync(job.bundle, "utf8"));
pyodide.runPython(`import sys; sys.path.insert(0, "${home}")`);
async function runOne(run) {
  current = run;
  pyodide.globals.set("run_text", JSON.stringify(run));
  const out = await pyodide.runPythonAsync(`
import json
import lite_driver
run = json.loads(run_text)
report = await lite_driver.run_script("${home}/main.py", run["script"], run["book"], run.get("args"))
json.dumps(report)
`);
  return JSON.parse(out);
}
if (job.runs) {
  const reports = [];
  for (const run of job.runs) reports.push(await runOne(run));
  process.stdout.write(JSON.stringify({ runs: reports, reads }));
} else {
  process.stdout.write(JSON.stringify({ ...(await runOne(job)), reads }));
}
