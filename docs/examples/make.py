"""The example files docs/command-line.md runs, made the way users' tools make them
(python docs/examples/make.py writes them here; a test holds the committed copies equal to this).

- reference_once.csv: the reference typed once, in the first data row, for every variant below it.
- translations.csv: one reference per row, as a translation export has.
- mac_export.csv: Excel for Mac's "CSV (Macintosh)": MacRoman bytes, ';' between fields (French settings).
- campaign.xlsx: an Excel Table with a totals row and two hidden rows (a filter that leaves a row out hides it
  the same way in the sheet XML: ``<row ... hidden="1">``).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import xlsxwriter

HERE = Path(__file__).resolve().parent

REFERENCE = "Free delivery on every order this week"
VARIANTS = [
    "Free delivery on every order this week",
    "Free delivery this week on every order",
    "Free delivery on every order",
    "Get free shipping on all orders",
    "This week: free delivery on all orders",
    "Order today",
]
TRANSLATIONS = [
    ("Le colis est arrivé à l'heure", "Le colis est arrivé à l'heure"),
    ("Livraison offerte sur toute commande", "Livraison gratuite pour chaque commande"),
    ("Votre commande a été expédiée", "Votre commande est partie"),
    ("Merci de votre achat", "Merci pour votre achat"),
    ("Paiement sécurisé", "Paiement sûr"),
    ("Retours gratuits sous 30 jours", "Retour gratuit en 30 jours"),
    ("Nouvelle collection d'été", "La nouvelle collection d'été"),
    ("Service client disponible 7 jours sur 7", "Service client ouvert tous les jours"),
]
MAC_ROWS = [
    ("Produit", "Référence", "Candidat"),
    ("P-1", "Livraison offerte à partir de 50 €", "Livraison offerte dès 50 €"),
    ("P-2", "L’été arrive : profitez-en", "L’été est là, profitez-en"),
]


def csv(rows: list[tuple[str, ...]], delimiter: str = ",") -> str:
    return "".join(delimiter.join(row) + "\r\n" for row in rows)


def files() -> dict[str, bytes]:
    """Each CSV example's name and bytes."""
    once = [("Variant", "Reference", "Candidate")]
    once += [(f"V{i}", REFERENCE if i == 1 else "", v) for i, v in enumerate(VARIANTS, start=1)]
    translations = [("ID", "Reference", "Candidate")] + [(str(i), *pair) for i, pair in enumerate(TRANSLATIONS, 1)]
    return {
        "reference_once.csv": csv(once).encode("utf-8"),
        "translations.csv": csv(translations).encode("utf-8"),
        "mac_export.csv": csv(MAC_ROWS, ";").encode("mac_roman"),
    }


CAMPAIGN = [
    ("Email subject", "Free delivery on every order this week", "Free delivery on every order"),
    ("Email subject", "Free delivery on every order this week", "Free delivery this week on every order"),
    ("Email subject", "Free delivery on every order this week", "Get free shipping on all orders"),
    ("Banner", "The summer collection is here", "Our summer collection is here"),
    ("Banner", "The summer collection is here", "Summer is here"),
    ("Banner", "The summer collection is here", "The new summer collection is here"),
]
HIDDEN = (3, 6)  # 0-based sheet rows: the third and the sixth variant


def build_campaign(path: Path) -> None:
    book = xlsxwriter.Workbook(str(path))
    book.calc_on_load = False  # as Excel saves it: the totals row's value is its formula's own
    sheet = book.add_worksheet("Campaign")
    columns = [
        {"header": "Placement", "total_string": "Total"},
        {"header": "Reference"},
        {"header": "Candidate", "total_function": "count"},
    ]
    sheet.add_table(
        0, 0, len(CAMPAIGN) + 1, 2, {"name": "tblCampaign", "data": CAMPAIGN, "columns": columns, "total_row": True}
    )
    sheet.set_column(0, 0, 14)
    sheet.set_column(1, 2, 40)
    for row in HIDDEN:
        sheet.set_row(row, None, None, {"hidden": True})
    book.set_properties({"author": "bleu-xl", "created": dt.datetime(2026, 1, 1)})
    book.close()


def main() -> None:
    for name, data in files().items():
        (HERE / name).write_bytes(data)
    build_campaign(HERE / "campaign.xlsx")


if __name__ == "__main__":
    main()
