"""The release bundle for Excel users: the wheel, the Windows installer, the workbooks and the Lite bundle."""
