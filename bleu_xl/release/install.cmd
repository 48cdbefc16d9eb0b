@echo off
rem Runs install.ps1 (beside this file) with an execution policy that allows this one local script; nothing
rem is changed system-wide. The window stays open until a key is pressed, so that its last lines can be read.
powershell.exe -NoProfile -ExecutionPolicy Bypass -File "%~dp0install.ps1" %*
set result=%errorlevel%
pause
exit /b %result%
