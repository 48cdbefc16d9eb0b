// Runs tests/lite_driver.py inside real Pyodide under Node, offline: the job (JSON) on stdin, the report on stdout.
// The installed xlwings package (its Python files) is copied into Pyodide's file system, so the bundle is
// registered and called by the same xlwings office.js code as under CPython.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { loadPyodide } from "pyodide";

const job = readFileSync(0, "utf8");
const { driver, bundle, xlwings } = JSON.parse(job);
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

copyPythonFiles(xlwings, join(home, "xlwings"));
pyodide.FS.writeFile(join(home, "lite_driver.py"), readFileSync(driver, "utf8"));
pyodide.FS.writeFile(join(home, "main.py"), readFileSync(bundle, "utf8"));
pyodide.globals.set("job_text", job);
const out = await pyodide.runPythonAsync(`
import json, sys
sys.path.insert(0, "${home}")
import lite_driver
report = await lite_driver.run("${home}/main.py", json.loads(job_text)["payloads"])
json.dumps(report)
`);
process.stdout.write(out);
