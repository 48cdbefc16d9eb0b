"""The pages under docs/ stay true, as the README does: every example runs and prints what the page shows, every
figure is recomputed from the code or said to be measured, every link leads to a page or a heading that exists."""

from __future__ import annotations

import doctest
import re
import signal
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from bleu_xl import score
from bleu_xl.cli import main
from tests.helpers import copy_examples

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = {name: (DOCS / f"{name}.md").read_text(encoding="utf-8") for name in (
    "excel", "command-line", "python", "scoring", "formulas", "threat-model", "development"
)}  # fmt: skip
#: Linked before it is written: the benchmarks' page, whose figures the benchmarks work publishes.
PENDING = {ROOT / "benchmarks" / "README.md"}


def flat(text: str) -> str:
    """Text with its line breaks and runs of spaces as single spaces (pages wrap lines anywhere)."""
    return " ".join(text.split())


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


# --- links ---------------------------------------------------------------------------------------------------------


def _anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lowercase, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_every_link_leads_somewhere() -> None:
    pages = {ROOT / "README.md": (ROOT / "README.md").read_text(encoding="utf-8")}
    pages |= {DOCS / f"{name}.md": text for name, text in PAGES.items()}
    missing = []
    for page, text in pages.items():
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"https?://", target):
                continue
            path, _, anchor = target.partition("#")
            file = (page.parent / path).resolve() if path else page
            if file in PENDING and not file.exists():
                continue
            if not file.exists():
                missing.append(f"{page.name}: {target}")
            elif anchor:
                headings = re.findall(r"^#+ (.+)$", file.read_text(encoding="utf-8"), flags=re.M)
                if anchor not in {_anchor(h) for h in headings}:
                    missing.append(f"{page.name}: {target} (no such heading)")
    assert missing == []
    readme_links = re.findall(r"\]\((docs/[\w-]+\.md)\)", (ROOT / "README.md").read_text(encoding="utf-8"))
    assert {Path(link).stem for link in readme_links} == set(PAGES)  # the README leads to every page


def test_every_figure_with_a_unit_of_time_is_said_to_be_measured() -> None:
    for name, text in PAGES.items():
        for sentence in re.split(r"(?<=[.;])\s", flat(text)):
            if re.search(r"\b\d+(\.\d+)? ?(s|ms|µs|seconds?|minutes?)\b", sentence):
                assert "measured" in sentence, (name, sentence)


# --- Excel and the template ------------------------------------------------------------------------------------------


def _function_table() -> list[tuple[str, str]]:
    table = re.search(r"^\| formula \| result \|\n\| --- \| --- \|\n((?:\|.*\|\n)+)", PAGES["excel"], flags=re.M)
    assert table, "the function table (| formula | result |) is missing from docs/excel.md"
    rows = [line.strip("|").split(" | ") for line in table.group(1).splitlines()]
    return [(formula.strip(), result.strip()) for formula, result in rows]


def test_function_table_is_the_registry() -> None:
    from bleu_xl.excel.functions import FUNCTIONS

    expected = [(f"`={function.syntax}`", function.description) for function in FUNCTIONS]
    assert _function_table() == expected, "regenerate the table: " + "\n".join(
        f"| {formula} | {result} |" for formula, result in expected
    )


def test_the_page_and_both_add_ins_list_exactly_the_registry() -> None:
    import bleu_xl.udfs
    from bleu_xl.excel.functions import FUNCTIONS

    from . import lite_driver

    names = [function.name for function in FUNCTIONS]
    assert len(names) == len(set(names))
    assert [re.match(r"`=(\w+)\(", formula).group(1) for formula, _ in _function_table()] == names
    assert bleu_xl.udfs.__all__ == names
    with lite_driver.bundle_module(ROOT / "install" / "xlwings-lite" / "main.py") as bundle:
        assert list(bundle._DECLARED) == names
        assert all(vars(bundle)[name] is bundle._DECLARED[name] for name in names)


def test_the_excel_steps_say_what_excel_shows() -> None:
    from bleu_xl.lite.reenter import SCRIPT_NAME

    text = flat(PAGES["excel"])
    bundle = (ROOT / "install" / "xlwings-lite" / "main.py").read_text(encoding="utf-8")
    assert 'starts with `"""bleu-xl ... for xlwings Lite`' in text and re.match(r'"""bleu-xl \S+ for xlwings', bundle)
    assert '`=BLEU2("the cat sat on the mat", "the cat sat on a mat")` into a cell: it shows `0.707107`' in text
    assert "the value is 0.7071067811865476" in text
    assert score("the cat sat on the mat", "the cat sat on a mat").bleu == 0.7071067811865476
    assert '`=BLEU2("le chat", "le chat")` into any cell: `1`' in text and score("le chat", "le chat").bleu == 1
    assert f"**{SCRIPT_NAME}**" in text
    fix = text[text.index("## When a cell shows `#NAME?`") :]
    assert fix.index("find `=` and replace with `=`") < fix.index(SCRIPT_NAME)  # what works comes first
    for phrase in ("Unblock", "Trust access to the VBA project object model", "xlwings version mismatch"):
        assert phrase in text  # the usual failures of the Windows install
    assert "**Update.**" in text and "**Uninstall.**" in text and "`install.cmd -DryRun`" in text


def test_the_date_helper_writes_the_classic_add_ins_iso_date() -> None:
    """xlwings Lite gets a date cell as its serial number; the helper formula the page gives turns it into the
    text the classic add-in scores for the same cell."""
    import datetime as dt

    import formulas

    from bleu_xl.excel.cell_values import cell_text

    helper = '=YEAR(A2)&"-"&RIGHT("0"&MONTH(A2),2)&"-"&RIGHT("0"&DAY(A2),2)'
    assert f"`{helper}`" in PAGES["excel"]
    func = formulas.Parser().ast(helper)[1].compile()
    for day in (dt.date(2026, 1, 1), dt.date(2024, 2, 29), dt.date(2026, 12, 31)):
        serial = (day - dt.date(1899, 12, 30)).days
        assert func(serial) == cell_text(dt.datetime(day.year, day.month, day.day)) == day.isoformat()
        assert cell_text(float(serial)) == str(serial)  # what Lite would score without the helper
    assert "(`46023`)" in PAGES["excel"] and (dt.date(2026, 1, 1) - dt.date(1899, 12, 30)).days == 46023


def test_the_page_shows_every_rendered_picture() -> None:
    from bleu_xl.template import build as template
    from bleu_xl.template import data as template_data

    pictures = sorted(DOCS.glob("*.png"))
    assert len(pictures) > len(template.SHEETS) and all(f"]({p.name})" in PAGES["excel"] for p in pictures)
    assert {p.name for p in pictures} >= {f"sample-{name}-01.png" for name in template_data.SAMPLES}
    assert all(p.stat().st_size < 150_000 for p in pictures)  # small: rendered at 70 dpi


# --- the command line ------------------------------------------------------------------------------------------------


def test_every_option_the_page_names_exists() -> None:
    options = {opt for command in main.commands.values() for param in command.params for opt in param.opts}
    options |= {"--help", "-h", "--version"}
    named = set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*|-[oq])\b", PAGES["command-line"]))
    assert named - options - {"--paired-bs", "--paired-ar"} == set()  # sacrebleu's, named for comparison
    assert set(re.findall(r"`bleu-xl ([a-z][a-z-]*)", PAGES["command-line"])) <= set(main.commands)


def test_the_three_lines_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    block = re.search(r"```bash\n(.*?)```", PAGES["command-line"], flags=re.S).group(1)
    monkeypatch.chdir(tmp_path)
    for line in block.splitlines():
        args = [arg.strip('"') for arg in re.findall(r'"[^"]*"|[^\s#]+', line.split("  #")[0])]
        assert args[0] == "bleu-xl"
        assert run(*args[1:]).exit_code == 0, line
    assert (tmp_path / "workbooks" / "samples" / "marketing_en-scored.xlsx").exists()


def test_the_csv_example_runs_as_shown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The export.csv example: a French Excel CSV (Windows-1252, ;) in, the line on stderr and the CSV out."""
    page = PAGES["command-line"]
    command, stderr = re.search(r"```text\n\$ (bleu-xl score export\.csv [^\n]+)\n([^\n]+)\n```", page).groups()
    header, row = re.search(r'```text\n("Produit";[^\n]+)\n([^\n]+)\n```', page).groups()
    monkeypatch.chdir(tmp_path)
    columns = [cell.strip('"') for cell in header.split(";")][:4]
    values = [cell.strip('"') for cell in row.split(";")][:4]
    Path("export.csv").write_bytes((";".join(columns) + "\r\n" + ";".join(values) + "\r\n").encode("cp1252"))
    result = run(*command.split()[1:])
    assert result.exit_code == 0 and result.stderr == stderr + "\n"
    written = Path("export-scored.csv").read_bytes()
    assert written.startswith(b"\xef\xbb\xbf")  # UTF-8 with a BOM, for Excel
    assert written.decode("utf-8-sig").splitlines() == [header, row]


def test_every_example_on_the_files_of_docs_examples_is_real_output(tmp_path: Path, monkeypatch) -> None:
    """The layouts people make, as the page shows them (a reference typed once, a reference per row, a totals row
    and hidden rows, a MacRoman CSV, standard input, the JSON document): each command's whole output."""
    from .helpers import copy_examples, shown_output

    names = copy_examples(tmp_path)
    monkeypatch.chdir(tmp_path)
    shown_runs = re.findall(
        r"```text\n\$ ((?:cat \S+ \| )?bleu-xl score [^\n]+)\n(.*?)```", PAGES["command-line"], re.S
    )
    examples = [(command, shown) for command, shown in shown_runs if set(command.split()) & set(names)]
    assert len(examples) >= 6
    for command, shown in examples:
        assert shown_output(command) == shown, command


def test_the_committed_examples_equal_their_generator(tmp_path: Path) -> None:
    """The example files, by bytes for text and by what bleu-xl reads for the workbook (its bytes depend on the
    XlsxWriter release)."""
    import importlib.util

    from tests.helpers import read_sheet

    spec = importlib.util.spec_from_file_location("make_examples", DOCS / "examples" / "make.py")
    make = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make)
    hint = "run `python docs/examples/make.py`"
    for name, data in make.files().items():
        assert (DOCS / "examples" / name).read_bytes() == data, f"{name} differs: {hint}"
    make.build_campaign(tmp_path / "campaign.xlsx")
    committed, built = read_sheet(str(DOCS / "examples" / "campaign.xlsx")), read_sheet(str(tmp_path / "campaign.xlsx"))
    assert (committed.rows, committed.hidden_rows, committed.totals_rows) == (
        built.rows,
        built.hidden_rows,
        built.totals_rows,
    ), f"campaign.xlsx differs: {hint}"


def test_the_pair_and_compare_examples_are_real() -> None:
    page = PAGES["command-line"]
    compare = re.search(r"```text\n\$ (bleu-xl compare [^\n]+)\n(.*?)```", page, flags=re.S)
    args = re.findall(r'"[^"]*"|\S+', compare.group(1))[1:]
    assert run(*[a.strip('"') for a in args]).output == compare.group(2)
    pairs = list(re.finditer(r"```text\n\$ (bleu-xl pair [^\n]+)\n(.*?)```", page, flags=re.S))
    assert len(pairs) == 3  # BLEU's lines, chrF's, TER's
    for pair in pairs:
        args = re.findall(r'"[^"]*"|\S+', pair.group(1))[1:]
        shown = run(*[a.strip('"') for a in args]).output.splitlines()
        assert all(line in shown for line in pair.group(2).splitlines()), pair.group(1)
    one_word = run("pair", "Shop now", "Shop").output
    left_out = re.search(r"the p2 line\s+reads `([^`]+)`", page).group(1)
    assert left_out in one_word.splitlines()


# --- the Python API and the scoring definition -----------------------------------------------------------------------


def test_the_python_example_runs() -> None:
    block = re.search(r"```python\n(.*?)```", PAGES["python"], flags=re.S).group(1)
    test = doctest.DocTestParser().get_doctest(block, {}, "python.md", "docs/python.md", 0)
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.failures == 0 and runner.tries >= 5


def test_the_metric_and_file_examples_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy_examples(tmp_path)
    monkeypatch.chdir(tmp_path)
    blocks = re.findall(r"```python\n(.*?)```", PAGES["python"], flags=re.S)[2:]
    assert len(blocks) == 3  # TER's, the metric objects', the files'
    blocks = blocks[1:]
    for number, block in enumerate(blocks):
        test = doctest.DocTestParser().get_doctest(block, {}, f"python.md {number}", "docs/python.md", 0)
        runner = doctest.DocTestRunner()
        runner.run(test)
        assert runner.failures == 0 and runner.tries >= 2
    assert (tmp_path / "scores.csv").is_file()
    text = flat(PAGES["python"])
    files = text[text.index("## Metrics as objects") :]
    named = set(re.findall(r"`(?:bleu_xl\.)?([A-Za-z_]+)(?:\(|`)", files))
    import bleu_xl

    exported = {name for name in named if name in bleu_xl.__all__}
    assert {"Bleu", "Chrf", "Resampling", "score_file", "compare_file", "ScoredFile", "InputError"} <= exported
    done = bleu_xl.score_file("workbooks/samples/marketing_en.xlsx", output="again.csv")
    fields = re.search(r"returns a `ScoredFile`: (.*?)\. `on_read", text).group(1)
    assert all(hasattr(done, name) for name in re.findall(r"`(\w+)`", fields)), fields
    parameters = re.search(r"Its parameters are the settings the messages name: (.*?)\. It returns", text).group(1)
    import inspect

    assert set(re.findall(r"`(\w+)`", parameters)) <= set(inspect.signature(bleu_xl.score_file).parameters)


def test_every_name_the_python_page_gives_is_there() -> None:
    import bleu_xl

    text = flat(PAGES["python"])
    beyond = text[text.index("Beyond `score`") : text.index("## chrF")]
    named = set(re.findall(r"`(?:bleu_xl\.)?([A-Za-z_]+)`", beyond)) - {"BLEU2_CI", "BLEU2_PAIRED"}
    assert named <= set(bleu_xl.__all__), named - set(bleu_xl.__all__)
    assert len(named) >= 15
    fields = re.search(r"returns a `Score`: (.*?) read from them", text).group(1)
    attributes = re.findall(r"`(\w+)`", fields)
    s = score("a b", "a b")
    assert len(attributes) >= 10 and all(hasattr(s, name) for name in attributes), attributes
    chrf_part = text[text.index("## chrF") : text.index("## TER")]
    functions = set(re.findall(r"`(?:bleu_xl\.)?([A-Za-z_]+)\(", chrf_part)) | set(
        re.findall(r"`(Chrf\w+)`", chrf_part)
    )
    functions -= {"float", "as_dict"}  # a builtin and a method, named as they are called
    assert functions and functions <= set(bleu_xl.__all__), functions - set(bleu_xl.__all__)
    fields = re.search(r"returns a `ChrfScore`: (.*?) and `as_dict\(\)`", chrf_part).group(1)
    shown = bleu_xl.chrf("a b", "a b", word_order=2)
    attributes = [name for name in re.findall(r"`(\w+)`", fields) if name not in {"None", "chrF2"}]  # values
    assert all(hasattr(shown, name) or hasattr(shown.characters, name) for name in attributes), fields
    ter_part = text[text.index("## TER") : text.index("## Metrics as objects")]
    functions = set(re.findall(r"`(?:bleu_xl\.)?([a-z_]+)\(", ter_part)) | set(
        re.findall(r"`(Ter\w+|Change)", ter_part)
    )
    functions -= {"float", "as_dict"}
    assert {"ter", "corpus_ter", "ter_changes", "TerScore", "TerReferences", "Change"} <= functions
    assert functions <= set(bleu_xl.__all__), functions - set(bleu_xl.__all__)
    fields = re.search(r"returns a `TerScore`: (.*?) and `as_dict\(\)`", ter_part).group(1)
    shown_ter = bleu_xl.ter("a b", "b a")
    assert all(hasattr(shown_ter, name) for name in re.findall(r"`(\w+)`", fields) if name != "s"), fields


def test_the_scoring_tables_are_recomputed() -> None:
    page = PAGES["scoring"]
    thai = "จัดส่งฟรีสำหรับทุกคำสั่งซื้อในสัปดาห์นี้"
    pairs = {
        "`Shop now` (half right)": ("Shop", "Shop now"),
        "`Buy` (no word in common)": ("Shop", "Buy"),
        "`5`": ("Total", "5"),
        "the same without `ฟรี` (free)": (thai, thai.replace("ฟรี", "")),
        "`ลดราคา` (unrelated)": (thai, "ลดราคา"),
    }
    rows = re.findall(r"^\| (.+?) \| (.+?) \| (\d\.\d{4}) \| (\d\.\d{4}) \|$", page, flags=re.M)
    assert len(rows) == len(pairs)
    for _, candidate, _, now in rows:
        reference, text = pairs[candidate]
        assert f"{score(reference, text).bleu:.4f}" == now, candidate  # the 0.1.0 column is the old definition's

    reference = "a entrega chegou no prazo e o produto veio bem embalado"
    worked = re.findall(r'^\| "([^"]+)" \| BLEU-(\d), (none|add-1) \| [^|]+ \| [^|]+ \| ([\d.]+) \|$', page, flags=re.M)
    assert len(worked) == 6
    for candidate, n, smoothing, bleu in worked:
        s = score(reference, candidate, max_n=int(n), smoothing="none" if smoothing == "none" else "add1")
        decimals = len(bleu.partition(".")[2])
        assert f"{s.bleu:.{decimals}f}" == bleu, (candidate, n, smoothing)
    assert f"{score('a b c', 'x y z').bleu:.3f}" == "0.289" and "gives sqrt(1/4 x 1/3) = 0.289" in flat(page)
    assert score("Shop", "Buy").p1 == 1 / 2  # a one-word miss: (0 + 1) / (1 + 1)


def test_the_ter_examples_are_recomputed() -> None:
    from bleu_xl import Ter, corpus_ter, ter, ter_changes

    page = PAGES["scoring"]
    reference = "a entrega chegou no prazo e o produto veio bem embalado"
    rows = re.findall(r'^\| "([^"]+)" \| (\d+) \| (\d\.\d{3}) \| (\d\.\d{3}) \|$', page, flags=re.M)
    assert len(rows) == 3
    for candidate, edits, value, bleu in rows:
        s = ter(reference, candidate)
        assert (s.edits, f"{s.ter:.3f}", f"{score(reference, candidate).bleu:.3f}") == (int(edits), value, bleu)
    assert f"{corpus_ter([reference] * 3, [c for c, *_ in rows]).ter:.3f}" == "0.485" and "/ 33 = 0.485" in page
    example = ter_changes("Free delivery on every order", "Every order ships with FREE delivery")
    assert example.edits == 4 and f"`{example.text}`" in flat(page)
    assert ter("the cat's.", "the cat's.", normalized=True).ter == 0.5 and "scores 0.5" in flat(page)
    assert f"`{Ter().signature()}`" in page


def test_the_token_examples_are_what_tokenize_gives() -> None:
    from bleu_xl import tokenize

    text = flat(PAGES["scoring"])
    for source, shown in re.findall(r'`"?([^`"]+)"?` gives ((?:`[^`]+`(?:, )?)+)', text):
        assert tokenize(source) == re.findall(r"`([^`]+)`", shown), source
    assert len(re.findall(r"` gives `", text)) >= 4
    assert tokenize("๒๐๒๖") == ["๒๐๒๖"] and tokenize("नमस्ते") == ["नमस्ते"]  # stays one token / one word


def test_the_signature_the_pages_show_is_the_current_one() -> None:
    current = score("a", "a").signature
    for name, text in PAGES.items():
        for shown in re.findall(r"bleu-xl:\d+\.\d+\.\d+\|[^\s`'\"]+", text):
            assert shown == current or shown == current.split("|")[0] + "|...", name


# --- how the formulas are stored, the threat model --------------------------------------------------------------------


def test_the_template_stores_its_formulas_as_the_page_says() -> None:
    text = flat(PAGES["formulas"])
    with zipfile.ZipFile(ROOT / "workbooks" / "bleu2_ranking.xlsx") as book:
        parts = {name: book.read(name).decode("utf-8") for name in book.namelist() if name.endswith(".xml")}
    sheets = "".join(xml for name, xml in parts.items() if name.startswith("xl/worksheets/"))
    tables = "".join(xml for name, xml in parts.items() if name.startswith("xl/tables/"))
    assert "no `fullCalcOnLoad`" in text and "fullCalcOnLoad" not in parts["xl/workbook.xml"]
    assert '`array="1"`' in text and re.search(r'<calculatedColumnFormula array="1">[^<]*BLEU2', tables)
    assert 't="array"' in sheets and 'cm="1"' in sheets and "_xlfn." in sheets
    assert "(`BLEU2(...)`)" in text and "BLEU2(" in sheets and "_xldudf_" not in sheets and "[1]!" not in sheets
    assert "`COUNT(H4:K4)=4`" in text and "COUNT(H4:K4)&lt;4" in sheets and "FIXED(K4,3)" in sheets
    assert "from 0.0495 to just below 0.05" in text and "AND(K4&gt;=0.0495,K4&lt;0.05)" in sheets
    formulas = "".join(re.findall(r"<f[^>]*>([^<]*)</f>", sheets))
    assert not re.search(r"(?<![A-Z])TEXT\(", formulas)  # FIXED, never TEXT, whose format codes are the locale's


def test_the_threat_model_s_limits_are_the_code_s() -> None:
    from bleu_xl.files.read import limits

    text = flat(PAGES["threat-model"])
    assert limits.MAX_UNCOMPRESSED == limits.MAX_TEXT_BYTES == 1 << 30  # "1 GiB"
    assert "over 1 GiB unpacked, or a compression ratio over 100" in text and limits.MAX_RATIO == 100
    assert (
        "text files over 1 GiB (standard input too)" in text and "Standard input and text files stop at 1 GiB" in text
    )
    defaults = limits.DEFAULT_LIMITS
    assert defaults.memory == 2 * 10**9 and "`--read-memory` (default 2 GB)" in text
    assert f"`--read-time` seconds (default {defaults.seconds:g})" in text
    assert f"more than {limits.MAX_CELLS:,} cells" in text
    assert "1,048,576 x 16,384 grid (A to XFD)" in text
    exits = (128 + signal.SIGTERM, 128 + signal.SIGHUP)
    assert f"128 + the signal ({exits[0]}, {exits[1]})" in text


def test_the_development_page_names_files_that_exist() -> None:
    for path in re.findall(r"`((?:tests|docs|benchmarks|bleu_xl|install|\.ci)/[\w./-]*)`", PAGES["development"]):
        assert (ROOT / path).exists() or ROOT / path in PENDING, path
    tree = PAGES["development"][PAGES["development"].index("bleu_xl/\n") :].split("```")[0]
    listed = set(re.findall(r"(\w+\.py)", tree)) - {"main.py"}  # the Lite bundle's file, named in a comment
    assert listed <= {p.name for p in (ROOT / "bleu_xl").rglob("*.py")}
    assert {"reenter.py", "bundle.py", "readme.py"} <= listed
