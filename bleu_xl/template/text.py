"""The words of the template: its *Start here* sheet in English, French and Portuguese, and the definition line.

Written for the user who opens the file first; kept apart from the builders so that a translator edits one file.
"""

from __future__ import annotations

from ..excel.versions import version_line
from ..lite.reenter import SCRIPT_NAME

__all__ = ["DEFINITION", "START_HERE"]

# The Start here sheet, per language: (label, text) rows. Written for the user who opens the file first.
START_HERE: list[tuple[str, list[tuple[str, str]]]] = [
    (
        "English",
        [
            (
                "What it does",
                "This workbook scores copy variants and translations against one approved reference with BLEU-2, "
                "right in the cells.\n"
                "Type or paste the reference in Rank!B2 and the variants under Candidate: every new row gets its "
                "scores and its rank, with no formula to fill down.\n"
                "The scores shown were computed when the file was made; with the bleu-xl functions installed, "
                "Excel recalculates a row as soon as you change it.",
            ),
            (
                "Windows",
                "Classic add-in: 1. Install Python 3.10 or newer from python.org (tick Add python.exe to PATH). 2. "
                "Close Excel and double-click install.cmd in the folder where you unzipped the bleu-xl zip (beside "
                "READ ME FIRST.txt; with pip instead: pip install bleu-xl, then bleu-xl excel-setup): a console window "
                "reports each step, and Excel opens briefly at the end. 3. Start Excel and open this workbook: "
                '=BLEU2("le chat", "le chat") in any cell gives 1.',
            ),
            (
                "Mac, web",
                "xlwings Lite: 1. Home > Add-ins (in older Excel: Insert > Add-ins): search for xlwings Lite and "
                "click Add. 2. Copy all of main.py from the xlwings-lite folder of the bleu-xl zip (or write it with "
                "the command bleu-xl lite-bundle FOLDER) and paste it over everything in the main.py tab of the "
                "xlwings Lite pane; press Ctrl+S (Cmd+S on a Mac). 3. The functions now work "
                "in this workbook; if cells still show #NAME?, see the next line.",
            ),
            (
                "#NAME?",
                "#NAME? means the bleu-xl functions are not installed, or Excel read the formula before they "
                "existed. Install them as above; then, if cells still show #NAME?, make Excel read every formula "
                "again: Home > Find & Select > Replace (Ctrl+H), find = and replace with =, Replace All. With "
                f'xlwings Lite, the script "{SCRIPT_NAME}" in the xlwings Lite pane does the same for '
                "the bleu-xl formulas. Recalculating (F9, even Ctrl+Alt+F9) does not do it.",
            ),
            (
                "The sheets",
                "Rank: the table of variants, scored and ranked, and the best candidate. Sorted: the same variants, "
                "best first, and a chart of them. Spill: a list of its own (its reference in B2, its variants under "
                "Candidate), scored from one range formula (no rank), the fast way for long lists. Pairs: one "
                "reference per candidate, its scores, TER "
                "(edits per reference word: lower is better) and the words that changed, and the corpus scores. "
                "Compare: is set B really better than set A? (paired bootstrap test). xlwings.conf: settings of the "
                "classic add-in; leave it as it is.",
            ),
            (
                "It measures",
                "BLEU-2 counts the words (p1) and the pairs of neighbouring words (p2) that a candidate shares "
                "with the reference, and lowers the score of a candidate shorter than the reference (BP). Chinese, "
                "Japanese and Korean count per character, Thai, Lao, Burmese and Khmer per character cluster "
                "(they are written without spaces). A one-word candidate has no pair of words: its p2 is blank and "
                "left out of the score. 1 = identical; there is no universal pass mark. Scoring 0.2 (see "
                "BLEU2_SIGNATURE).",
            ),
            (
                "BLEU-2 or chrF",
                "The chrF column (=CHRF) counts the sequences of 1 to 6 characters a candidate shares with the "
                "reference (spaces left out), so it gives partial credit where words share a stem: livré and "
                "livrées, entregue and entregues. Look at chrF for short copy (a call to action of one to three "
                "words has hardly a word pair for BLEU-2 to count) and for languages that inflect their words, "
                "such as French and Portuguese. Look at BLEU-2 when the exact words and their order matter: it "
                "credits only whole words and pairs of neighbouring words. chrF keeps capitals and punctuation "
                "(FREE DELIVERY scores low against Free delivery), and neither measures meaning. "
                "=CHRF(reference, candidate, 6, 2) gives chrF++, which also counts words and word pairs.",
            ),
            (
                "It does not",
                "It does not measure meaning, tone, facts or brand voice: a faithful paraphrase can score low and a "
                "text with a wrong price can score high. Scores against different references are not comparable, and "
                "very short lines (a few words) give unstable scores: a one-word score tells little (a wrong word "
                "still scores 0.5 against a one-word reference). For buttons, subject lines and other very short copy, "
                "chrF (it compares characters, not words) is the better measure. Use BLEU-2 to rank variants of the "
                "same line, then read the top ones.",
            ),
        ],
    ),
    (
        "Français",
        [
            (
                "À quoi sert ce classeur ?",
                "Ce classeur note des variantes de texte et des traductions par rapport à une référence validée, "
                "avec le BLEU-2, directement dans les cellules.\n"
                "Saisissez ou collez la référence en Rank!B2 et les variantes sous Candidate : chaque nouvelle "
                "ligne reçoit ses scores et son rang, sans formule à recopier.\n"
                "Les scores affichés ont été calculés à la création du fichier ; une fois les fonctions bleu-xl "
                "installées, Excel recalcule une ligne dès que vous la modifiez.",
            ),
            (
                "Windows",
                "Complément classique : 1. Installez Python 3.10 ou plus récent depuis python.org (cochez Add "
                "python.exe to PATH). 2. Fermez Excel et double-cliquez sur install.cmd dans le dossier où vous avez "
                "décompressé le zip de bleu-xl (à côté de READ ME FIRST.txt ; avec pip : pip install bleu-xl, puis "
                "bleu-xl excel-setup) : une console affiche chaque étape, et Excel s'ouvre brièvement à la fin. 3. "
                'Lancez Excel et ouvrez ce classeur : =BLEU2("le chat"; "le chat") dans n\'importe quelle cellule '
                "donne 1.",
            ),
            (
                "Mac, web",
                "xlwings Lite : 1. Accueil > Compléments (dans un Excel plus ancien : Insertion > Compléments) : "
                "cherchez xlwings Lite et cliquez sur Ajouter. 2. Copiez tout le fichier main.py du dossier "
                "xlwings-lite du zip de bleu-xl (ou écrivez-le avec la commande bleu-xl lite-bundle DOSSIER) et "
                "collez-le à la place de tout le contenu de l'onglet main.py du volet xlwings Lite ; faites Ctrl+S "
                "(Cmd+S sur Mac). 3. Les fonctions sont alors "
                "disponibles dans ce classeur ; si des cellules affichent encore #NOM?, voyez la ligne suivante.",
            ),
            (
                "#NOM?",
                "#NOM? (#NAME? en anglais) signifie que les fonctions bleu-xl ne sont pas installées, ou qu'Excel "
                "a lu la formule avant qu'elles existent. Installez-les comme ci-dessus ; puis, si des cellules "
                "affichent encore #NOM?, faites relire chaque formule à Excel : Accueil > Rechercher et "
                "sélectionner > Remplacer (Ctrl+H), recherchez = et remplacez par =, Remplacer tout. Avec xlwings "
                f'Lite, le script "{SCRIPT_NAME}" du volet xlwings Lite fait de même pour les formules '
                "bleu-xl. Un recalcul (F9, même Ctrl+Alt+F9) ne suffit pas.",
            ),
            (
                "Les feuilles",
                "Rank : le tableau des variantes, notées et classées, et le meilleur candidat. Sorted : les mêmes "
                "variantes, de la meilleure à la moins bonne, et leur graphique. Spill : une liste à part (sa "
                "référence en B2, ses variantes sous Candidate), notée en une seule formule de plage (sans rang), la "
                "voie rapide pour les longues listes. Pairs : une référence par candidat, ses scores, le TER "
                "(modifications par mot de la "
                "référence : plus bas, c'est mieux) et les mots modifiés, et les scores du corpus. Compare : la "
                "série B est-elle vraiment meilleure que la série A ? (test bootstrap apparié). xlwings.conf : "
                "réglages du complément classique, à laisser tels quels.",
            ),
            (
                "Ce qu'il mesure",
                "Le BLEU-2 compte les mots (p1) et les paires de mots voisins (p2) qu'un candidat partage avec la "
                "référence, et pénalise un candidat plus court que la référence (BP). Le chinois, le japonais et le "
                "coréen comptent par caractère, le thaï, le lao, le birman et le khmer par groupe de caractères "
                "(ils s'écrivent sans espaces). Un candidat d'un seul mot n'a pas de paire de mots : son p2 reste "
                "vide et hors du score. 1 = identique ; il n'existe pas de seuil universel. Notation 0.2 (voir "
                "BLEU2_SIGNATURE).",
            ),
            (
                "BLEU-2 ou chrF",
                "La colonne chrF (=CHRF) compte les suites de 1 à 6 caractères qu'un candidat partage avec la "
                "référence (sans les espaces) : elle accorde un crédit partiel aux mots de même racine, comme "
                "livré et livrées. Regardez le chrF pour les textes courts (un appel à l'action d'un à trois mots "
                "n'a presque aucune paire de mots à compter pour le BLEU-2) et pour les langues qui fléchissent "
                "leurs mots, comme le français et le portugais. Regardez le BLEU-2 quand les mots exacts et leur "
                "ordre comptent : il ne crédite que les mots entiers et les paires de mots voisins. Le chrF tient "
                "compte des majuscules et de la ponctuation (LIVRAISON OFFERTE obtient un score bas face à "
                "Livraison offerte), et aucun des deux ne mesure le sens. =CHRF(référence; candidat; 6; 2) donne "
                "le chrF++, qui compte aussi les mots et les paires de mots.",
            ),
            (
                "Ce qu'il ne mesure pas",
                "Il ne mesure ni le sens, ni le ton, ni l'exactitude des faits, ni la voix de la marque : une "
                "paraphrase fidèle peut obtenir un score bas et un texte avec un prix erroné un score élevé. Des "
                "scores calculés par rapport à des références différentes ne sont pas comparables, et les lignes très "
                "courtes (quelques mots) donnent des scores instables : le score d'un seul mot dit peu de chose (un "
                "mot faux obtient encore 0,5 face à une référence d'un mot). Pour les boutons, les objets d'e-mail et "
                "les autres textes très courts, le chrF (qui compare des caractères, non des mots) convient mieux. "
                "Servez-vous du BLEU-2 pour classer les variantes d'une même ligne, puis relisez les premières.",
            ),
        ],
    ),
    (
        "Português",
        [
            (
                "Para que serve",
                "Esta pasta de trabalho pontua variantes de texto e traduções em relação a uma referência "
                "aprovada, com o BLEU-2, direto nas células.\n"
                "Digite ou cole a referência em Rank!B2 e as variantes abaixo de Candidate: cada nova linha recebe "
                "suas pontuações e sua posição, sem fórmula para arrastar.\n"
                "As pontuações exibidas foram calculadas quando o arquivo foi gerado; com as funções do bleu-xl "
                "instaladas, o Excel recalcula uma linha assim que você a altera.",
            ),
            (
                "Windows",
                "Suplemento clássico: 1. Instale o Python 3.10 ou mais recente pelo python.org (marque Add "
                "python.exe to PATH). 2. Feche o Excel e clique duas vezes em install.cmd na pasta onde você "
                "descompactou o zip do bleu-xl (ao lado de READ ME FIRST.txt; com pip: pip install bleu-xl e depois "
                "bleu-xl excel-setup): uma janela de console mostra cada etapa, e o Excel abre por um instante no "
                "fim. 3. "
                'Abra o Excel e esta pasta de trabalho: =BLEU2("le chat"; "le chat") em qualquer célula dá 1.',
            ),
            (
                "Mac, web",
                "xlwings Lite: 1. Página Inicial > Suplementos (num Excel mais antigo: Inserir > Suplementos): "
                "procure xlwings Lite e clique em Adicionar. 2. Copie todo o arquivo main.py da pasta xlwings-lite "
                "do zip do bleu-xl (ou gere-o com o comando bleu-xl lite-bundle PASTA) e cole-o no lugar de todo o "
                "conteúdo da aba main.py do painel do xlwings Lite; pressione "
                "Ctrl+S (Cmd+S no Mac). 3. As funções passam a funcionar nesta pasta de trabalho; se alguma célula "
                "ainda mostrar #NOME?, veja a próxima linha.",
            ),
            (
                "#NOME?",
                "#NOME? (#NAME? em inglês) significa que as funções do bleu-xl não estão instaladas, ou que o "
                "Excel leu a fórmula antes de elas existirem. Instale-as como acima; depois, se alguma célula ainda "
                "mostrar #NOME?, faça o Excel ler cada fórmula de novo: Página Inicial > Localizar e Selecionar > "
                "Substituir, localize = e substitua por =, Substituir Tudo. Com o xlwings Lite, o script "
                f'"{SCRIPT_NAME}" do painel do xlwings Lite faz o mesmo com as fórmulas do bleu-xl. '
                "Recalcular (F9, mesmo Ctrl+Alt+F9) não basta.",
            ),
            (
                "As planilhas",
                "Rank: a tabela de variantes, pontuadas e classificadas, e o melhor candidato. Sorted: as mesmas "
                "variantes, da melhor para a pior, e o gráfico delas. Spill: uma lista à parte (a referência em B2, "
                "as variantes sob Candidate), pontuada com uma única fórmula de intervalo (sem posição), o jeito "
                "rápido para listas longas. "
                "Pairs: uma referência por candidato, as pontuações, o TER (edições por palavra da referência: quanto "
                "menor, melhor) e as palavras alteradas, e as pontuações do corpus. Compare: o conjunto B é mesmo "
                "melhor que o conjunto A? (teste bootstrap pareado). xlwings.conf: configurações do suplemento "
                "clássico; não altere.",
            ),
            (
                "O que mede",
                "O BLEU-2 conta as palavras (p1) e os pares de palavras vizinhas (p2) que um candidato tem em "
                "comum com a referência e penaliza um candidato mais curto que a referência (BP). Chinês, japonês "
                "e coreano contam por caractere; tailandês, laosiano, birmanês e khmer, por grupo de caracteres "
                "(são escritos sem espaços). Um candidato de uma só palavra não tem par de palavras: o p2 fica em "
                "branco e fora da pontuação. 1 = idêntico; não há nota de corte universal. Pontuação 0.2 (veja "
                "BLEU2_SIGNATURE).",
            ),
            (
                "BLEU-2 ou chrF",
                "A coluna chrF (=CHRF) conta as sequências de 1 a 6 caracteres que um candidato tem em comum com "
                "a referência (sem os espaços): ela dá crédito parcial a palavras com o mesmo radical, como "
                "entregue e entregues. Olhe o chrF para textos curtos (uma chamada para ação de uma a três "
                "palavras quase não tem pares de palavras para o BLEU-2 contar) e para línguas que flexionam as "
                "palavras, como o português e o francês. Olhe o BLEU-2 quando as palavras exatas e a ordem delas "
                "importam: ele só dá crédito a palavras inteiras e a pares de palavras vizinhas. O chrF leva em "
                "conta maiúsculas e pontuação (FRETE GRÁTIS tira nota baixa contra Frete grátis), e nenhum dos "
                "dois mede o sentido. =CHRF(referência; candidato; 6; 2) dá o chrF++, que também conta palavras "
                "e pares de palavras.",
            ),
            (
                "O que não mede",
                "Ele não mede sentido, tom, fatos nem a voz da marca: uma paráfrase fiel pode tirar nota baixa e um "
                "texto com preço errado, nota alta. Pontuações calculadas com referências diferentes não são "
                "comparáveis, e linhas muito curtas (poucas palavras) dão pontuações instáveis: a pontuação de uma só "
                "palavra diz pouco (uma palavra errada ainda tira 0,5 contra uma referência de uma palavra). Para "
                "botões, assuntos de e-mail e outros textos muito curtos, o chrF (que compara caracteres, não "
                "palavras) é a medida mais adequada. Use o BLEU-2 para classificar variantes de uma mesma frase e "
                "depois revise as primeiras.",
            ),
        ],
    ),
]
DEFINITION = (
    f"{version_line()}. Tokens: NFKC + casefold; words of letters, marks and numbers; each CJK character "
    "is a token; each Thai, Lao, Myanmar or Khmer letter begins a token that the marks after it join. "
    "p_n = clipped n-gram matches / candidate n-grams (add-1: (0+1)/(total+1) when nothing matches); an order "
    "the candidate has no n-gram of is left out. BP = 1 if c >= r else exp(1 - r/c). "
    "BLEU-2 = BP * sqrt(p1 * p2), or BP * p1 for a one-word candidate. "
    "chrF (as sacrebleu's chrF2): characters with whitespace removed, case and punctuation kept; for n = 1 to 6, "
    "precision and recall of the clipped character n-gram matches, each averaged over the orders both texts "
    "have; chrF = 5PR / (4P + R). "
    "TER (as sacrebleu's TER): the fewest edits (a word inserted, deleted or replaced, a phrase moved) that turn "
    "the lowercased words of the candidate into the reference's, per reference word; lower is better, 0 is "
    "identical."
)
