"""The fixture formulary's drug names (fixtures/formulary/, synthetic test data), as the loader derives them.

Kept as data so the understanding tests run without an index; the names follow the fixture's titles and
`Tên thương mại` sections (title alias in parentheses, brands separated by semicolons).
"""

from __future__ import annotations

from retrieval.corpus import DrugNames
from retrieval.names import NameBook

_ROWS: tuple[tuple[str, str, tuple[str, ...], tuple[str, ...], tuple[str, ...]], ...] = (
    ("paracetamol", "Paracetamol", ("Acetaminophen",), ("Panadol", "Efferalgan", "Hapacol"),
     ("Thuốc giảm đau, hạ sốt",)),
    ("ibuprofen", "Ibuprofen", (), ("Brufen", "Advil", "Gofen"), ("Thuốc chống viêm không steroid", "NSAID")),
    ("acid_acetylsalicylic", "Acid acetylsalicylic", ("Aspirin",), ("Aspirin pH8", "Aspegic"),
     ("Thuốc chống viêm không steroid", "NSAID", "chống kết tập tiểu cầu")),
    ("amoxicilin", "Amoxicilin", ("Amoxicillin",), ("Clamoxyl", "Hagimox"), ("Kháng sinh nhóm beta-lactam", "penicilin")),
    ("warfarin", "Warfarin", (), ("Coumadin", "Marevan"), ("Thuốc chống đông máu kháng vitamin K", "coumarin")),
    ("isosorbid_dinitrat", "Isosorbid dinitrat", (), ("Isordil", "Risordan"), ("Thuốc chống đau thắt ngực", "nitrat")),
    ("metformin", "Metformin", (), ("Glucophage", "Panfor"), ("Thuốc điều trị đái tháo đường nhóm biguanid",)),
    ("amlodipin", "Amlodipin", (), ("Amlor", "Norvasc"), ("Thuốc chẹn kênh calci",)),
    ("captopril", "Captopril", (), ("Capoten",), ("Thuốc ức chế enzym chuyển angiotensin", "ACE")),
    ("enalapril", "Enalapril", (), ("Renitec",), ("Thuốc ức chế enzym chuyển angiotensin", "ACE")),
    ("losartan", "Losartan", (), ("Cozaar",), ("Thuốc đối kháng thụ thể angiotensin II",)),
    ("omeprazol", "Omeprazol", (), ("Losec", "Omez"), ("Thuốc ức chế bơm proton",)),
    ("ciprofloxacin", "Ciprofloxacin", (), ("Ciprobay",), ("Kháng sinh nhóm quinolon",)),
    ("clarithromycin", "Clarithromycin", (), ("Klacid",), ("Kháng sinh nhóm macrolid",)),
    ("azithromycin", "Azithromycin", (), ("Zithromax",), ("Kháng sinh nhóm macrolid",)),
    ("ceftriaxon", "Ceftriaxon", (), ("Rocephin",), ("Kháng sinh nhóm cephalosporin thế hệ 3",)),
    ("metronidazol", "Metronidazol", (), ("Flagyl",), ("Thuốc kháng khuẩn, kháng động vật nguyên sinh",)),
    ("fluconazol", "Fluconazol", (), ("Diflucan",), ("Thuốc chống nấm nhóm azol",)),
    ("digoxin", "Digoxin", (), ("Lanoxin",), ("Glycosid tim",)),
    ("furosemid", "Furosemid", (), ("Lasix",), ("Thuốc lợi tiểu quai",)),
    ("simvastatin", "Simvastatin", (), ("Zocor",), ("Thuốc hạ lipid máu nhóm statin",)),
    ("salbutamol", "Salbutamol", (), ("Ventolin",), ("Thuốc chủ vận beta2-adrenergic", "giãn phế quản")),
    ("cetirizin", "Cetirizin", (), ("Zyrtec",), ("Thuốc kháng histamin H1",)),
    ("diclofenac", "Diclofenac", (), ("Voltaren",), ("Thuốc chống viêm không steroid", "NSAID")),
    ("prednisolon", "Prednisolon", (), ("Medopred", "Hydrocortancyl"), ("Corticosteroid", "glucocorticoid")),
    ("domperidon", "Domperidon", (), ("Motilium",), ("Thuốc chống nôn, kháng dopamin",)),
    ("loperamid", "Loperamid", (), ("Imodium",), ("Thuốc chống tiêu chảy",)),
    ("phenytoin", "Phenytoin", (), ("Dilantin",), ("Thuốc chống động kinh",)),
    ("carbamazepin", "Carbamazepin", (), ("Tegretol",), ("Thuốc chống động kinh",)),
    ("allopurinol", "Allopurinol", (), ("Zyloric",), ("Thuốc điều trị gút, ức chế xanthin oxidase",)),
)

FIXTURE_DRUGS: list[DrugNames] = [
    DrugNames(drug_id=d, name=n, aliases=a, brands=b, classes=c) for d, n, a, b, c in _ROWS
]


def fixture_name_book() -> NameBook:
    return NameBook(FIXTURE_DRUGS)
