<#
.SYNOPSIS
  Installs bleu-xl for the classic xlwings Excel add-in (Windows): =BLEU2 and friends in every workbook.

.DESCRIPTION
  1. creates a Python virtual environment under %LOCALAPPDATA%\bleu-xl\venv
  2. installs bleu-xl there (from this checkout, or from a wheel given with -Wheel), which brings the exact
     xlwings version bleu-xl pins, so the Excel add-in and the Python package always match
  3. runs "xlwings addin install"
  4. writes the xlwings user config (%USERPROFILE%\.xlwings\xlwings.conf): that environment's Python as the
     interpreter and bleu_xl.udfs as the UDF module, keeping the settings that are already there
  5. unless -NoAddin: builds bleu_xl.xlam with the functions and installs it (needs Excel, and "Trust access to
     the VBA project object model" in Excel's Trust Center)

.EXAMPLE
  install.cmd
.EXAMPLE
  powershell -ExecutionPolicy Bypass -File install.ps1 -Wheel C:\Downloads\bleu_xl-0.1.0-py3-none-any.whl
#>
param(
    [string]$Wheel = "",
    [switch]$NoAddin
)
$ErrorActionPreference = "Stop"

$Root = Join-Path $env:LOCALAPPDATA "bleu-xl"
$Venv = Join-Path $Root "venv"
$Python = Join-Path $Venv "Scripts\python.exe"
$Checkout = Resolve-Path (Join-Path $PSScriptRoot "..\..")

Write-Host "bleu-xl: installing into $Root"

# 1. A virtual environment of its own (py is the Windows Python launcher; python works too).
if (-not (Test-Path $Python)) {
    New-Item -ItemType Directory -Force -Path $Root | Out-Null
    if (Get-Command py -ErrorAction SilentlyContinue) { py -3 -m venv $Venv } else { python -m venv $Venv }
    if ($LASTEXITCODE -ne 0) { throw "Could not create the virtual environment: install Python 3.10 or newer from python.org" }
}

# 2. bleu-xl and the xlwings version it pins.
& $Python -m pip install --quiet --upgrade pip
if ($Wheel) { $Package = $Wheel } else { $Package = "$Checkout" }
& $Python -m pip install --quiet --upgrade "$Package"
if ($LASTEXITCODE -ne 0) { throw "pip could not install bleu-xl from $Package" }

# 3. The xlwings Excel add-in (the ribbon tab and the Python bridge).
& (Join-Path $Venv "Scripts\xlwings.exe") addin install
if ($LASTEXITCODE -ne 0) { throw "xlwings addin install failed: close Excel and run install.cmd again" }

# 4. The xlwings user config, merged with the settings already there (bleu-xl's own code does the merge).
& (Join-Path $Venv "Scripts\bleu-xl.exe") excel-setup --only config
if ($LASTEXITCODE -ne 0) { throw "Could not write %USERPROFILE%\.xlwings\xlwings.conf" }

# 5. bleu_xl.xlam: the functions in every workbook, .xlsx included.
if (-not $NoAddin) {
    & (Join-Path $Venv "Scripts\bleu-xl.exe") excel-setup --only xlam
    if ($LASTEXITCODE -ne 0) {
        Write-Warning "The bleu_xl.xlam add-in was not built (see install\windows\README.md). The functions still work in workbooks with the xlwings.conf sheet, after Import Functions."
    }
}

Write-Host "bleu-xl is installed. Restart Excel and type =BLEU2(`"le chat`", `"le chat`") into a cell."
