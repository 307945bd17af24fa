"""Section keys of a 2018 monograph, in book order, with their canonical Vietnamese headings."""

from __future__ import annotations

SECTION_HEADINGS: dict[str, str] = {
    "ten_chung_quoc_te": "Tên chung quốc tế",
    "ma_atc": "Mã ATC",
    "loai_thuoc": "Loại thuốc",
    "dang_thuoc_ham_luong": "Dạng thuốc và hàm lượng",
    "duoc_ly_co_che": "Dược lý và cơ chế tác dụng",
    "chi_dinh": "Chỉ định",
    "chong_chi_dinh": "Chống chỉ định",
    "than_trong": "Thận trọng",
    "thoi_ky_mang_thai": "Thời kỳ mang thai",
    "thoi_ky_cho_con_bu": "Thời kỳ cho con bú",
    "tac_dung_khong_mong_muon": "Tác dụng không mong muốn (ADR)",
    "huong_dan_xu_tri_adr": "Hướng dẫn cách xử trí ADR",
    "lieu_luong_cach_dung": "Liều lượng và cách dùng",
    "tuong_tac_thuoc": "Tương tác thuốc",
    "do_on_dinh_bao_quan": "Độ ổn định và bảo quản",
    "tuong_ky": "Tương kỵ",
    "qua_lieu_xu_tri": "Quá liều và xử trí",
    "thong_tin_quy_che": "Thông tin quy chế",
    "ten_thuong_mai": "Tên thương mại",
}

SECTION_KEYS: tuple[str, ...] = tuple(SECTION_HEADINGS)
BOOK_ORDER: dict[str, int] = {key: i for i, key in enumerate(SECTION_KEYS)}
IDENTITY_SECTIONS: tuple[str, ...] = ("ten_chung_quoc_te", "ma_atc", "loai_thuoc", "dang_thuoc_ham_luong", "chi_dinh")
