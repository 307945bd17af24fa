"""Routing predicates: pure functions of the turn text and the understood frame.

They are the conditions of the routing table (DESIGN.md, "Routing — first match wins"); the engine's
spec wraps each one as a labelled guard, in table order.
"""

from __future__ import annotations

from states.frame import QueryFrame

CONDITION_TURNS = ("condition_to_drug", "symptom_to_drug")


def is_dosing_with_drugs(frame: QueryFrame) -> bool:
    return frame.turn_type == "dosing_calc" and bool(frame.drugs) and not frame.section_overview


def dosing_population_unknown(frame: QueryFrame) -> bool:
    # Row 2. No dose without a population: adult and paediatric regimens differ in the formulary. A skin application
    # ("kem bôi ngày mấy lần") is how often, not how much by age or weight: the book's ointment lines name no
    # population, and any that do are quoted with their own label (#17 held-out H133 asked "adult or child?" for
    # aciclovir cream).
    return is_dosing_with_drugs(frame) and frame.population is None and frame.route != "topical"


def pediatric_age_or_weight_missing(frame: QueryFrame) -> bool:
    # Row 3. Paediatric turns need BOTH age and weight: the formulary branches on both (paracetamol prints an
    # age band "Trẻ em 4–6 tuổi: 240 mg" *and* a weight rule "10–50 kg: 15 mg/kg"); answering with one of them
    # means picking a regimen the source does not let us pick.
    return (
        is_dosing_with_drugs(frame)
        and frame.population == "pediatric"
        and (frame.age_months is None or frame.weight_kg is None)
    )


def understanding_needs_clarify(frame: QueryFrame) -> bool:
    # Row 4. The understander's own clarify applies only where the code has no slot rule of its own.
    return (
        frame.needs_clarify
        and frame.turn_type not in ("dosing_calc", *CONDITION_TURNS)
        and not frame.section_overview
    )


def is_condition_turn(frame: QueryFrame) -> bool:
    return frame.turn_type in CONDITION_TURNS


def condition_ambiguous(frame: QueryFrame) -> bool:
    return is_condition_turn(frame) and frame.condition_ambiguous


def reverse_relation_not_indication(frame: QueryFrame) -> bool:
    return (
        is_condition_turn(frame)
        and frame.condition_relation is not None
        and frame.condition_relation != "indication"
    )


def condition_present(frame: QueryFrame) -> bool:
    return is_condition_turn(frame) and bool(frame.condition)


def condition_turn_without_condition(frame: QueryFrame) -> bool:
    return frame.turn_type == "condition_to_drug" and not frame.condition


def symptom_turn_without_symptom(frame: QueryFrame) -> bool:
    return frame.turn_type == "symptom_to_drug" and not frame.condition


def is_condition_relation(frame: QueryFrame) -> bool:
    return frame.turn_type == "condition_relation"


def attribute_missing(frame: QueryFrame) -> bool:
    return frame.turn_type == "drug_attribute" and bool(frame.drugs) and frame.section_key is None


def is_smalltalk(frame: QueryFrame) -> bool:
    return frame.turn_type == "smalltalk"


def is_out_of_scope(frame: QueryFrame) -> bool:
    return frame.turn_type == "out_of_scope"


def only_unknown_drugs(frame: QueryFrame) -> bool:
    return not frame.drugs and bool(frame.unknown_drugs)


def no_drug(frame: QueryFrame) -> bool:
    return not frame.drugs


def interaction_with_two_drugs(frame: QueryFrame) -> bool:
    """Two formulary drugs, or one and a drug or class without a monograph ("đang dùng allopurinol, kê thêm
    amoxicilin"): the interaction section of the one(s) in the book is searched for the other."""
    return frame.turn_type == "interaction" and (len(frame.drugs) >= 2 or (len(frame.drugs) == 1
                                                                            and bool(frame.unknown_drugs)))
