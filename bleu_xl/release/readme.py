"""The release bundle's READ ME FIRST.txt: what is in the folder and how to start, in English, French and Portuguese.

One page, for the user who has just unzipped the bundle; it names only the bundle's own files and bleu-xl's
commands. Kept apart from the builder so that a translator edits one file.
"""

from __future__ import annotations

from ..excel.versions import version_line

__all__ = ["read_me_first"]

_TEXT = """\
bleu-xl {version}: BLEU-2 scores in Excel, for copy variants and translations.
{versions}
Français plus bas. Português mais abaixo.

  bleu2_ranking.xlsx   the template: paste one reference and your variants, get scores and ranks
  samples              example workbooks, each a table of hand-checked pairs
  install.cmd          Windows: puts the bleu-xl functions into Excel
  xlwings-lite         Mac, Excel on the web: main.py for xlwings Lite
  {wheel}   the Python package (install.cmd installs it)

Windows, Excel on your PC:
  1. Install Python 3.10 or newer from python.org (tick "Add python.exe to PATH").
  2. Close Excel, double-click install.cmd and wait for "bleu-xl is installed" (it needs the
     internet; if Windows "protected your PC": More info > Run anyway).
  3. Open bleu2_ranking.xlsx: =BLEU2("le chat", "le chat") in any cell gives 1.
Mac, Excel on the web: xlwings Lite, nothing to install on the computer:
  1. Open bleu2_ranking.xlsx; Home > Add-ins, search for xlwings Lite and click Add.
  2. Open main.py of the folder xlwings-lite in a text editor, copy all of it, paste it over
     everything in the main.py tab of the xlwings Lite pane, and save the workbook.
  3. Cells showing #NAME?: run the script "{script}" in the xlwings Lite pane,
     or Home > Find & Select > Replace: find = and replace with =, Replace All.

Français. Windows, Excel sur votre PC :
  1. Installez Python 3.10 ou plus récent depuis python.org (cochez "Add python.exe to PATH").
  2. Fermez Excel, double-cliquez sur install.cmd et attendez "bleu-xl is installed" (il faut
     Internet ; si Windows "a protégé votre ordinateur" : Informations complémentaires >
     Exécuter quand même).
  3. Ouvrez bleu2_ranking.xlsx : =BLEU2("le chat"; "le chat") dans une cellule donne 1.
Mac, Excel pour le web : xlwings Lite, rien à installer sur l'ordinateur :
  1. Ouvrez bleu2_ranking.xlsx ; Accueil > Compléments, cherchez xlwings Lite, Ajouter.
  2. Copiez tout main.py du dossier xlwings-lite et collez-le à la place de tout le contenu de
     l'onglet main.py du volet xlwings Lite ; enregistrez le classeur.
  3. Cellules en #NOM? : lancez le script "{script}" dans le volet xlwings Lite,
     ou Accueil > Rechercher et sélectionner > Remplacer : = par =, Remplacer tout.

Português. Windows, Excel no seu PC:
  1. Instale o Python 3.10 ou mais recente pelo python.org (marque "Add python.exe to PATH").
  2. Feche o Excel, clique duas vezes em install.cmd e espere "bleu-xl is installed" (precisa
     de internet; se o Windows "protegeu o computador": Mais informações > Executar assim mesmo).
  3. Abra bleu2_ranking.xlsx: =BLEU2("le chat"; "le chat") em qualquer célula dá 1.
Mac, Excel na Web: xlwings Lite, nada a instalar no computador:
  1. Abra bleu2_ranking.xlsx; Página Inicial > Suplementos, procure xlwings Lite, Adicionar.
  2. Copie todo o main.py da pasta xlwings-lite e cole-o no lugar de todo o conteúdo da aba
     main.py do painel do xlwings Lite; salve a pasta de trabalho.
  3. Células com #NOME?: execute o script "{script}" no painel do xlwings Lite,
     ou Página Inicial > Localizar e Selecionar > Substituir: = por =, Substituir Tudo.

Command line / ligne de commande / linha de comando (Python 3.10 or newer):
  pip install {wheel}
  bleu-xl score samples/marketing_en.xlsx
"""


def read_me_first(version: str, wheel: str, script: str) -> str:
    """The text of READ ME FIRST.txt for this version, its wheel's file name and the Lite script's name."""
    return _TEXT.format(version=version, versions=version_line(), wheel=wheel, script=script)
