@echo off
rem Runs install.ps1 with an execution policy that allows this one local script (nothing is changed system-wide).
powershell.exe -NoProfile -ExecutionPolicy Bypass -File "%~dp0install.ps1" %*
if errorlevel 1 pause
