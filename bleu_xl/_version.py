"""The package version, in one place (read by pyproject.toml, the command's --version, the Lite bundle, the template
and the release). The scoring definition's version, which signatures name, is apart: ``SCORING_VERSION``.

0.2.0.dev0: what CHANGELOG.md lists under Unreleased (scoring 0.2.0, chrF, file jobs as library calls) is past
0.1.0, and is released as 0.2.0."""

__version__ = "0.2.0.dev0"
