"""``python -m bleu_xl.cli``: the ``bleu-xl`` command, for a Python whose scripts folder is not on the path."""

from . import main

if __name__ == "__main__":
    main()
