// Runs tests/lite_driver.py inside real Pyodide under Node, offline: the job (JSON) on stdin, results on stdout.
import { readFileSync } from "node:fs";
import { loadPyodide } from "pyodide";

const job = readFileSync(0, "utf8");
const { driver, bundle } = JSON.parse(job);
const pyodide = await loadPyodide();
pyodide.FS.writeFile("/home/pyodide/lite_driver.py", readFileSync(driver, "utf8"));
pyodide.FS.writeFile("/home/pyodide/main.py", readFileSync(bundle, "utf8"));
pyodide.globals.set("job_text", job);
const out = pyodide.runPython(`
import json, sys
sys.path.insert(0, "/home/pyodide")
import lite_driver
job = json.loads(job_text)
with open("/home/pyodide/main.py", encoding="utf-8") as handle:
    results = lite_driver.run(handle.read(), job["calls"])
json.dumps({"python": sys.version, "results": results})
`);
process.stdout.write(out);
