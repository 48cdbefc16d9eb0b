<#
.SYNOPSIS
  Installs bleu-xl for the classic xlwings Excel add-in (Windows): =BLEU2 and friends in every workbook.

.DESCRIPTION
  Run it (through install.cmd) in the folder of the unzipped bleu-xl release bundle, which holds the wheel.
  1. creates a Python virtual environment under %LOCALAPPDATA%\bleu-xl\venv
  2. installs bleu-xl there from the wheel beside this script (or the one given with -Wheel), which brings the
     exact xlwings version bleu-xl pins, so the Excel add-in and the Python package always match (pip fetches
     bleu-xl's dependencies from the internet)
  3. runs "xlwings addin install"
  4. writes the xlwings user config (%USERPROFILE%\.xlwings\xlwings.conf): that environment's Python as the
     interpreter and bleu_xl.udfs as the UDF module, keeping the settings that are already there
  5. unless -NoAddin: builds bleu_xl.xlam with the functions and installs it (needs Excel, and "Trust access to
     the VBA project object model" in Excel's Trust Center)
  -DryRun prints every step and changes nothing.

.EXAMPLE
  install.cmd
.EXAMPLE
  install.cmd -DryRun
.EXAMPLE
  powershell -ExecutionPolicy Bypass -File install.ps1 -Wheel C:\Downloads\bleu_xl-0.1.0-py3-none-any.whl
#>
param(
    [string]$Wheel = "",
    [switch]$NoAddin,
    [switch]$DryRun
)
$ErrorActionPreference = "Stop"

$Root = Join-Path $env:LOCALAPPDATA "bleu-xl"
$Venv = Join-Path $Root "venv"
$Python = Join-Path $Venv "Scripts\python.exe"
$BleuXl = Join-Path $Venv "Scripts\bleu-xl.exe"

# The wheel of the bundle this script came in, never a checkout: exactly one beside this script.
if ($Wheel) {
    $Wheel = (Resolve-Path $Wheel).Path
} else {
    $Found = @(Get-ChildItem -Path $PSScriptRoot -Filter "bleu_xl-*.whl")
    if ($Found.Count -ne 1) {
        throw "install.cmd needs the one bleu_xl wheel of its bundle beside it (found $($Found.Count)): unzip the whole bleu-xl zip into an empty folder and run install.cmd there"
    }
    $Wheel = $Found[0].FullName
}

if ($DryRun) { Write-Host "bleu-xl: dry run, nothing is changed" }
Write-Host "bleu-xl: installing $Wheel into $Root"

# 1. A virtual environment of its own (py is the Windows Python launcher; python works too).
Write-Host "[1/5] Python environment: $Venv"
if (-not $DryRun) {
    if (-not (Test-Path $Python)) {
        New-Item -ItemType Directory -Force -Path $Root | Out-Null
        if (Get-Command py -ErrorAction SilentlyContinue) { py -3 -m venv $Venv } else { python -m venv $Venv }
        if ($LASTEXITCODE -ne 0) { throw "Could not create the virtual environment: install Python 3.10 or newer from python.org" }
    }
}

# 2. bleu-xl and the xlwings version it pins.
Write-Host "[2/5] pip install $Wheel"
if (-not $DryRun) {
    & $Python -m pip install --quiet --upgrade pip
    & $Python -m pip install --quiet --upgrade "$Wheel"
    if ($LASTEXITCODE -ne 0) { throw "pip could not install bleu-xl from $Wheel (it needs the internet for xlwings and the other packages bleu-xl uses)" }
}

# 3. The xlwings Excel add-in (the ribbon tab and the Python bridge).
Write-Host "[3/5] xlwings addin install"
if (-not $DryRun) {
    & (Join-Path $Venv "Scripts\xlwings.exe") addin install
    if ($LASTEXITCODE -ne 0) { throw "xlwings addin install failed: close Excel and run install.cmd again" }
}

# 4. The xlwings user config, merged with the settings already there (bleu-xl's own code does the merge).
Write-Host "[4/5] bleu-xl excel-setup --only config"
if (-not $DryRun) {
    & $BleuXl excel-setup --only config
    if ($LASTEXITCODE -ne 0) { throw "Could not write %USERPROFILE%\.xlwings\xlwings.conf" }
}

# 5. bleu_xl.xlam: the functions in every workbook, .xlsx included.
if ($NoAddin) {
    Write-Host "[5/5] bleu_xl.xlam: left out (-NoAddin)"
} else {
    Write-Host "[5/5] bleu-xl excel-setup --only xlam"
    if (-not $DryRun) {
        & $BleuXl excel-setup --only xlam
        if ($LASTEXITCODE -ne 0) {
            Write-Warning "The bleu_xl.xlam add-in was not built: in Excel, File > Options > Trust Center > Trust Center Settings > Macro Settings, tick Trust access to the VBA project object model, then run install.cmd again. The functions already work in workbooks with an xlwings.conf sheet (such as bleu2_ranking.xlsx), after Import Functions on the xlwings tab."
        }
    }
}

if ($DryRun) {
    Write-Host "bleu-xl: dry run done; run install.cmd without -DryRun to install."
} else {
    Write-Host "bleu-xl is installed. Restart Excel and type =BLEU2(`"le chat`", `"le chat`") into a cell: it shows 1."
}
