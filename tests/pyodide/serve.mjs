// Real Pyodide under Node, offline, for the xlwings Lite tests (tests/pyodide_runs.py starts it): Pyodide is loaded
// once, then each line of stdin is a job (JSON) and each line of stdout its report, so that a test process pays
// Pyodide's start once, as xlwings Lite keeps one Pyodide for a workbook.
//
// A job names the installed xlwings package (its Python files are copied into Pyodide's file system, so the
// bundle is registered and called by the same xlwings office.js code as under CPython), tests/lite_driver.py and
// the bundle, and is of one of two kinds:
// - "bundle": lite_driver.run registers the bundle's functions and answers each payload as Excel calls them;
// - "script": lite_driver.run_script runs a script of the bundle through xlwings' own custom_scripts_call, for
//   one workbook or for each of "runs" (a script, book, args and cells each), one after the other.
//
// xlwings Lite's client (its JavaScript, inside Excel) is not part of the xlwings package: the reads a script makes
// on demand reach it as js.xlwings.<name>(...). The stand-in below answers them from the job's cells the way
// Office.js reports a range: formulas (a cell without one reports its value), values, the used range's address.
// Writes are not applied here: the script queues them and returns them (the report's actions).
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { loadPyodide } from "pyodide";

const pyodide = await loadPyodide();
const home = "/home/pyodide";
pyodide.runPython(`import sys; sys.path.insert(0, "${home}")`);

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

let current = null; // the run whose cells the stand-in reads
let reads = []; // the job's reads, in order

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

const copied = new Set(); // the xlwings folders already in Pyodide's file system

function prepare(job) {
  if (!copied.has(job.xlwings)) {
    copyPythonFiles(job.xlwings, join(home, "xlwings"));
    copied.add(job.xlwings);
  }
  pyodide.FS.writeFile(join(home, "lite_driver.py"), readFileSync(job.driver, "utf8"));
  pyodide.FS.writeFile(join(home, "main.py"), readFileSync(job.bundle, "utf8"));
}

async function python(code, text) {
  pyodide.globals.set("job_text", text);
  return JSON.parse(await pyodide.runPythonAsync(code));
}

async function runBundle(job) {
  return python(
    `
import json
import lite_driver
job = json.loads(job_text)
json.dumps(await lite_driver.run("${home}/main.py", job["payloads"]))
`,
    JSON.stringify(job),
  );
}

async function runScript(run) {
  current = run;
  return python(
    `
import json
import lite_driver
run = json.loads(job_text)
json.dumps(await lite_driver.run_script("${home}/main.py", run["script"], run["book"], run.get("args")))
`,
    JSON.stringify(run),
  );
}

async function answer(job) {
  prepare(job);
  if (job.kind === "bundle") return runBundle(job);
  reads = [];
  if (job.runs) {
    const reports = [];
    for (const run of job.runs) reports.push(await runScript(run));
    return { runs: reports, reads };
  }
  return { ...(await runScript(job)), reads };
}

for await (const line of createInterface({ input: process.stdin })) {
  let reply;
  try {
    reply = { report: await answer(JSON.parse(line)) };
  } catch (error) {
    reply = { error: String(error && error.stack ? error.stack : error) };
  }
  process.stdout.write(JSON.stringify(reply) + "\n");
}
