"""International nonproprietary names (INN) of common medicines, as the Vietnamese formulary spells them.

Data, not logic: a name here is a real drug. When a turn names one that the loaded formulary has no monograph for,
the resolver reports it as a drug not in the formulary (abstain / drug_not_in_formulary, naming it) — never a
fuzzy or shorthand match to a formulary neighbour (esomeprazol is not omeprazol, isosorbid mononitrat is not
isosorbid dinitrat, acid folic is not acid acetylsalicylic), and never out_of_scope because the name has no
drug-like suffix ("colchicin", "budesonid", "ticagrelor").

The formulary's own names always win: the resolver drops every name here that the formulary spells (exactly, or
as the same drug in another spelling: "acyclovir"/"aciclovir", "cephalexin"/"cefalexin"), so the list can
hold drugs the formulary does have. Spelling is the book's (no final "e"); the international spelling with a
final "e" is accepted too (retrieval.resolver). Everyday words the book also uses for other things ("insulin" in
"phụ thuộc insulin", "kali" in "hạ kali huyết", vitamins) are deliberately absent.
"""

from __future__ import annotations

INN_NAMES: tuple[str, ...] = (
    # analgesics, NSAIDs, gout, rheumatology
    "aceclofenac", "celecoxib", "etoricoxib", "meloxicam", "piroxicam", "tenoxicam", "lornoxicam", "naproxen",
    "ketoprofen", "dexketoprofen", "ketorolac", "indomethacin", "etodolac", "nabumeton", "nimesulid", "metamizol",
    "tramadol", "codein", "morphin", "oxycodon", "hydromorphon", "fentanyl", "pethidin", "methadon", "buprenorphin",
    "nalbuphin", "naloxon", "naltrexon", "colchicin", "febuxostat", "probenecid", "sulfasalazin", "leflunomid",
    "hydroxychloroquin", "methotrexat", "glucosamin", "diacerein",
    # cardiovascular
    "atorvastatin", "rosuvastatin", "pravastatin", "lovastatin", "fluvastatin", "pitavastatin", "ezetimib",
    "fenofibrat", "gemfibrozil", "bezafibrat", "niacin",
    "bisoprolol", "metoprolol", "atenolol", "propranolol", "carvedilol", "nebivolol", "labetalol", "esmolol",
    "sotalol",
    "valsartan", "irbesartan", "telmisartan", "candesartan", "olmesartan",
    "lisinopril", "perindopril", "ramipril", "quinapril", "benazepril", "imidapril",
    "nifedipin", "felodipin", "lercanidipin", "nicardipin", "nimodipin", "diltiazem", "verapamil",
    "hydroclorothiazid", "hydrochlorothiazid", "indapamid", "spironolacton", "eplerenon", "torasemid", "bumetanid",
    "amilorid", "acetazolamid",
    "amiodaron", "dronedaron", "flecainid", "propafenon", "lidocain", "mexiletin", "adenosin", "ivabradin",
    "ranolazin", "trimetazidin", "nicorandil",
    "glyceryl trinitrat", "isosorbid mononitrat", "nitroglycerin", "molsidomin", "hydralazin", "methyldopa",
    "clonidin", "doxazosin", "prazosin", "terazosin",
    "dopamin", "dobutamin", "noradrenalin", "norepinephrin", "adrenalin", "epinephrin", "isoprenalin", "milrinon",
    "clopidogrel", "ticagrelor", "prasugrel", "ticlopidin", "dipyridamol", "cilostazol",
    "rivaroxaban", "apixaban", "edoxaban", "dabigatran", "heparin", "enoxaparin", "dalteparin", "fondaparinux",
    "acenocoumarol", "alteplase", "streptokinase", "tenecteplase",
    "acid tranexamic", "phytomenadion", "protamin",
    "sacubitril",
    # diabetes and endocrine
    "gliclazid", "glimepirid", "glibenclamid", "glipizid", "repaglinid", "nateglinid", "pioglitazon",
    "rosiglitazon", "acarbose", "sitagliptin", "vildagliptin", "saxagliptin", "linagliptin", "empagliflozin",
    "dapagliflozin", "canagliflozin", "liraglutid", "exenatid", "dulaglutid", "semaglutid",
    "levothyroxin", "liothyronin", "thiamazol", "methimazol", "carbimazol", "propylthiouracil",
    "dexamethason", "betamethason", "hydrocortison", "methylprednisolon", "triamcinolon", "fludrocortison",
    "budesonid", "fluticason", "mometason", "beclometason", "prednison", "cortison",
    "estradiol", "ethinylestradiol", "progesteron", "levonorgestrel", "norethisteron", "medroxyprogesteron",
    "dydrogesteron", "desogestrel", "cyproteron", "testosteron", "tamoxifen", "letrozol", "anastrozol", "clomifen",
    "raloxifen",
    "acid zoledronic", "alendronat", "risedronat", "ibandronat", "calcitriol", "alfacalcidol", "colecalciferol",
    "ergocalciferol",
    "desmopressin", "vasopressin", "oxytocin", "misoprostol", "dinoproston", "octreotid", "somatropin",
    "cabergolin", "bromocriptin",
    # gastro
    "esomeprazol", "lansoprazol", "pantoprazol", "rabeprazol", "dexlansoprazol", "famotidin", "ranitidin",
    "cimetidin", "nizatidin", "sucralfat", "bismuth",
    "metoclopramid", "ondansetron", "granisetron", "palonosetron", "trimebutin", "mebeverin", "drotaverin",
    "hyoscin", "alverin", "simethicon",
    "acid ursodeoxycholic", "lactulose", "macrogol", "bisacodyl", "sorbitol", "racecadotril", "diosmectit",
    "mesalazin", "silymarin",
    # respiratory, allergy
    "salmeterol", "formoterol", "terbutalin", "indacaterol", "ipratropium", "tiotropium", "theophyllin",
    "aminophyllin", "montelukast", "zafirlukast",
    "ambroxol", "bromhexin", "acetylcystein", "n-acetylcystein", "carbocystein", "dextromethorphan", "guaifenesin",
    "loratadin", "desloratadin", "fexofenadin", "levocetirizin", "chlorpheniramin", "clorpheniramin",
    "diphenhydramin", "promethazin", "hydroxyzin", "ketotifen", "cyproheptadin", "bilastin", "rupatadin",
    # antiinfectives
    "ampicilin", "oxacilin", "cloxacilin", "dicloxacilin", "penicilin", "benzylpenicilin", "phenoxymethylpenicilin",
    "piperacilin", "ticarcilin", "sultamicilin",
    "cefadroxil", "cefaclor", "cefuroxim", "cefixim", "cefpodoxim", "cefdinir", "cefotaxim", "ceftazidim",
    "cefoperazon", "cefepim", "cefazolin", "cefoxitin", "ceftarolin",
    "imipenem", "meropenem", "ertapenem", "doripenem", "aztreonam",
    "erythromycin", "roxithromycin", "spiramycin", "josamycin",
    "gentamicin", "amikacin", "tobramycin", "netilmicin", "streptomycin", "kanamycin", "neomycin",
    "vancomycin", "teicoplanin", "linezolid", "daptomycin", "colistin", "polymyxin", "fosfomycin", "nitrofurantoin",
    "doxycyclin", "tetracyclin", "minocyclin", "tigecyclin", "cloramphenicol", "chloramphenicol",
    "ofloxacin", "levofloxacin", "moxifloxacin", "norfloxacin", "pefloxacin", "lomefloxacin",
    "cotrimoxazol", "sulfamethoxazol", "trimethoprim", "tinidazol", "secnidazol", "ornidazol",
    "rifampicin", "isoniazid", "ethambutol", "pyrazinamid", "rifabutin",
    "aciclovir", "acyclovir", "valaciclovir", "famciclovir", "ganciclovir", "oseltamivir", "zidovudin", "lamivudin",
    "tenofovir", "efavirenz", "nevirapin", "abacavir", "dolutegravir", "entecavir", "ribavirin", "sofosbuvir",
    "itraconazol", "ketoconazol", "voriconazol", "posaconazol", "clotrimazol", "miconazol", "econazol",
    "terbinafin", "griseofulvin", "nystatin", "amphotericin", "caspofungin",
    "albendazol", "mebendazol", "ivermectin", "praziquantel", "pyrantel", "niclosamid",
    "artesunat", "artemether", "lumefantrin", "chloroquin", "quinin", "primaquin", "mefloquin", "piperaquin",
    # neuro, psychiatry
    "acid valproic", "natri valproat", "valproat", "lamotrigin", "topiramat", "gabapentin", "pregabalin",
    "oxcarbazepin", "phenobarbital", "clonazepam", "lacosamid", "zonisamid", "vigabatrin", "ethosuximid",
    "diazepam", "lorazepam", "alprazolam", "bromazepam", "midazolam", "clorazepat", "zolpidem",
    "sertralin", "fluoxetin", "paroxetin", "citalopram", "escitalopram", "fluvoxamin", "venlafaxin", "duloxetin",
    "mirtazapin", "amitriptylin", "clomipramin", "imipramin", "tianeptin", "trazodon",
    "haloperidol", "olanzapin", "risperidon", "quetiapin", "aripiprazol", "clozapin", "sulpirid", "amisulprid",
    "chlorpromazin", "levomepromazin",
    "donepezil", "rivastigmin", "galantamin", "memantin", "piracetam", "citicolin",
    "levodopa", "carbidopa", "benserazid", "pramipexol", "ropinirol", "selegilin", "rasagilin", "trihexyphenidyl",
    "amantadin",
    "sumatriptan", "flunarizin", "cinnarizin", "betahistin",
    "methylphenidat", "atomoxetin", "lithi",
    # muscle, anaesthesia
    "baclofen", "tizanidin", "tolperison", "eperison", "thiocolchicosid", "methocarbamol",
    "propofol", "ketamin", "etomidat", "thiopental", "sevofluran", "isofluran", "suxamethonium", "rocuronium",
    "vecuronium", "atracurium", "neostigmin", "atropin", "bupivacain", "ropivacain", "procain",
    # urology, others
    "tamsulosin", "alfuzosin", "finasterid", "dutasterid", "sildenafil", "tadalafil", "oxybutynin", "solifenacin",
    "tolterodin",
    "allopurinol",
    # oncology, immunology
    "ciclosporin", "tacrolimus", "mycophenolat", "azathioprin", "cyclophosphamid", "cisplatin", "carboplatin",
    "oxaliplatin", "doxorubicin", "paclitaxel", "docetaxel", "fluorouracil", "capecitabin", "gemcitabin",
    "imatinib", "erlotinib", "gefitinib", "rituximab", "trastuzumab", "bevacizumab", "adalimumab", "infliximab",
    "etanercept",
    # haematology, vitamins (names never read as Vietnamese words)
    "acid folic", "cyanocobalamin", "hydroxocobalamin", "pyridoxin", "thiamin", "riboflavin", "erythropoietin",
    "epoetin", "filgrastim", "deferoxamin",
    # antidotes
    "flumazenil", "pralidoxim", "glucagon",
    # names a formulary drug's name begins like ("digitoxin" is not digoxin): reported as not in the formulary
    "digitoxin", "clavulanat", "furazolidon", "alogliptin", "amodiaquin", "azilsartan", "asparaginase",
    # gastrointestinal remedies parents name ("berberin với smecta cho bé đi ngoài", #18 dev set H32)
    "berberin", "kaolin",
)
"""Folded (lower case, no diacritics); multi-word names separated by one space."""
