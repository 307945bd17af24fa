"""The QueryFrame: what one turn (merged with the conversation so far) asks."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

TurnType = Literal[
    "drug_attribute",
    "drug_overview",
    "dosing_calc",
    "interaction",
    "condition_to_drug",
    "symptom_to_drug",
    "condition_relation",
    "smalltalk",
    "out_of_scope",
]
Population = Literal["adult", "pediatric"]
Route = Literal["oral", "rectal", "iv", "im", "sc", "topical", "inhaled"]
ConditionRelation = Literal["indication", "contraindication", "adverse_effect", "caution", "other"]

class QueryFrame(BaseModel):
    """Fields the understanders extract. The code, not the model, decides which are required."""

    model_config = ConfigDict(extra="forbid")

    turn_type: TurnType = "drug_overview"
    drugs: list[str] = Field(default_factory=list)
    """Resolved formulary drug ids, in the order named."""
    unknown_drugs: list[str] = Field(default_factory=list)
    """Names that look like drugs but are not in the formulary (for drug_not_in_formulary)."""
    section_key: str | None = None
    section_overview: bool = False
    """The turn asks for a whole section/monograph overview rather than a specific fact."""
    population: Population | None = None
    age_text: str | None = None
    age_months: float | None = None
    weight_kg: float | None = None
    route: Route | None = None
    condition: str | None = None
    """The condition or symptom as written in the turn."""
    condition_relation: ConditionRelation | None = None
    condition_ambiguous: bool = False
    comorbidities: list[str] = Field(default_factory=list)
    renal: str | None = None
    hepatic: str | None = None
    gestation: str | None = None
    """A newborn's gestation as written ("đủ tháng", "thiếu tháng", "sinh non 32 tuần"): a value of that newborn,
    carried to the next turns about them ("bé được 10 ngày tuổi") and never to another person."""
    pregnant: bool = False
    breastfeeding: bool = False
    non_human: bool = False
    refusal: str | None = None
    """"self_harm" or "prescribing" (states.refusal): refused whatever drug the turn names; this turn only."""
    harm_refused: bool = False
    """The conversation has had a self-harm or lethal-amount refusal: set by the code, carried on every later frame of
    the conversation (persisted, so a restart keeps it), never cleared. A later question for toxic, lethal or
    overdose amounts is refused the same way ("đùa thôi mà, cho mình biết liều gây ngộ độc …")."""
    needs_clarify: bool = False
    clarify_reason: str | None = None
    quick_replies: list[str] = Field(default_factory=list)
    confidence: float = 1.0
    understood_by: str = "rules"
    weight_text: str | None = None
    """A weight converted from another unit, as said back ("40 lbs ≈ 18,1 kg"); goes with `weight_kg`."""
    person: str | None = None
    """Whom the question is about, as the user named them ("em nó", "mẹ bé", "bà tôi"); None when unnamed.
    Slot values belong to this person: a turn about another person starts their slots afresh."""
    route_family: Literal["injection"] | None = None
    routes_unusable: list[Route] = Field(default_factory=list)
    """Routes this turn says the patient cannot take ("bé nôn, không uống được"): never dosed nor offered. Set anew
    every turn, never carried."""
    """"đường tiêm" names injection without saying which (IV, IM, SC): settled against the dosage evidence."""
    unanswered: int = 0
    """Consecutive turns that answered nothing to the pending question (the third ask offers a way forward)."""
    kept: dict[str, Any] | None = None
    """On a smalltalk or out-of-scope turn: the conversation's question and patient, kept for the next
    follow-up ("cảm ơn" … "thế còn em nó 3 tuổi?"). The turn's own frame stays empty."""
    kept_pending: dict[str, Any] | None = None
    """With `kept`: the question the conversation was awaiting an answer to (a `Pending`), so that "bé 5 tuổi" …
    "cảm ơn" … "18 kg" still answers it (read as a new follow-up, the weight dropped the age)."""
    listed: list[str] = Field(default_factory=list)
    """The drugs a condition → drug answer listed, in order (set when that answer is composed): "thuốc đó" in the
    next turn is the one drug listed, or one of them (asked, the listed drugs as quick replies)."""
    shorthand: str | None = None
    """A drug shorthand of the turn that begins several drugs' names ("cef"), as typed: asked, never guessed."""
    shorthand_of: list[str] = Field(default_factory=list)
    """The drugs `shorthand` may mean (the question's quick replies)."""
    taking: list[str] = Field(default_factory=list)
    """Formulary drugs the person spoken of is said to be on ("ông tôi … đang uống warfarin"), set by the code
    (states.taking): carried with that person, never to another, so a later dose of a drug the book pairs with one of
    them says so first."""
    taking_unlisted: list[str] = Field(default_factory=list)
    """Drugs not in the formulary the person is said to be on ("mẹ tôi đang uống lithi"), as typed: carried with that
    person like `taking` (states.taking), so a later dose of a drug whose interaction section names one of them says
    so, and "còn paracetamol thì sao" is asked beside it."""
    people: dict[str, dict[str, Any]] = Field(default_factory=dict)
    """What was said of the earlier persons of the conversation (their age, weight, pregnancy, renal value …), keyed
    by the folded words that named them ("vo em"): given back when the user names one of them again
    (states.people). The current person's values are the frame's own slots, never here."""
    notes: list[str] = Field(default_factory=list)
    """What this turn's reply must say before anything else: a converted unit, a corrected or rejected value,
    the person the answer is now about. Set anew every turn, never carried."""

    @property
    def has_patient_context(self) -> bool:
        return bool(self.pregnant or self.breastfeeding or self.renal or self.hepatic or self.comorbidities)


class Pending(BaseModel):
    """What the last reply asked, persisted with the conversation while it awaits an answer."""

    reason: str
    missing: list[str] = Field(default_factory=list)
    """Slots the question asked for: population, age, weight, route, attribute, drug, condition."""
    quick_replies: list[str] = Field(default_factory=list)
    question: str = ""
