"""The turn machine as data: states, labelled guards, and ordered transitions.

`transitions` evaluates the transitions of one trigger in the order they were added and fires the first
whose conditions all pass: that is the routing table's "first match wins". The order below is the order
of the clinical routing table (DESIGN.md) and must stay so: the review export reads it top to bottom.

Each state names the one trigger it fires when its work is done. A work state names its step (a function in
`states/<state>.py`) with what it reads and writes and whether it calls a model: the runner runs the step, applies
its update (refusing undeclared writes), then fires the trigger and the guards decide. Guards are pure predicates
over the turn context; persistence and tracing are hooks after the turn.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from engine.context import TurnContext
from engine.limits import Limits
from retrieval.decide import Decision, decide
from states import (
    asking,
    calculating,
    generating,
    outcome,
    repairing,
    retrieving,
    routing,
    understanding,
    verifying,
)
from states.dosing import indication_ambiguous, route_ambiguous, route_not_documented
from states.gestation import gestation_unknown
from states.step import Step
from states.streak import answered_something, next_clarify_streak

Predicate = Callable[[TurnContext], bool]


@dataclass(frozen=True)
class Guard:
    name: str
    label_vi: str
    label_en: str
    predicate: Predicate = field(compare=False, hash=False)
    limit: str | None = None
    """A configured limit, when the guard has one (part of the fingerprint)."""
    on_trip: str = ""
    """What happens when the guard decides (for guards.md)."""


@dataclass(frozen=True)
class StateSpec:
    name: str
    kind: str  # "resting" | "work" | "outcome"
    label_vi: str
    label_en: str
    trigger: str
    """The trigger fired when the state's work is done; every transition out of the state is one of its."""
    step: Step | None = field(default=None, compare=False, hash=False)
    """The state's work (a function in `states/`); None when the guards alone decide (routing, resting)."""
    reads: tuple[str, ...] = ()
    """Turn-context fields the step reads."""
    writes: tuple[str, ...] = ()
    """Turn-context fields the step may write (the runner refuses any other)."""
    calls_model: bool = False

    @property
    def step_name(self) -> str | None:
        return f"{self.step.__module__}.{self.step.__qualname__}" if self.step is not None else None


@dataclass(frozen=True)
class TransitionSpec:
    trigger: str
    source: str
    dest: str
    guards: tuple[str, ...] = ()
    row: str | None = None
    """Routing-table row ("1" … "16", "4a"), for the transitions of the `route` trigger."""
    outcome: str | None = None
    reason: str | None = None
    """The reason this transition decides; None keeps the one decided earlier (or the path's)."""
    rationale: str = ""


@dataclass(frozen=True)
class MachineSpec:
    states: tuple[StateSpec, ...]
    guards: tuple[Guard, ...]
    transitions: tuple[TransitionSpec, ...]
    initial: str = "ready"
    limits: Limits = field(default_factory=Limits)

    def __post_init__(self) -> None:
        # Checked once per spec: a transition fired by a trigger its state never fires would be dead code, and a
        # guard label quoting a limit other than the one in force would mislead the reviewer who signs it.
        states = {s.name: s for s in self.states}
        for t in self.transitions:
            if t.source not in states or t.dest not in states:
                raise ValueError(f"transition {t.source} → {t.dest}: unknown state")
            if states[t.source].trigger != t.trigger:
                raise ValueError(f"transition {t.source} → {t.dest} fires on {t.trigger!r}, but state {t.source!r} "
                                 f"fires {states[t.source].trigger!r}")
        in_force = dict(self.limits.items())
        for g in self.guards:
            for part in (g.limit or "").split(";"):
                name, _, value = part.strip().partition("=")
                if name and in_force.get(name) != int(value):
                    raise ValueError(f"guard {g.name!r} quotes {name}={value}, but the spec's limit is "
                                     f"{in_force.get(name)}")

    def guard(self, name: str) -> Guard:
        for g in self.guards:
            if g.name == name:
                return g
        raise KeyError(name)

    def state(self, name: str) -> StateSpec:
        for s in self.states:
            if s.name == name:
                return s
        raise KeyError(name)

    @property
    def resting_states(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.states if s.kind == "resting")

    def replace_guard(self, name: str, predicate: Predicate) -> MachineSpec:
        """A copy with one guard's predicate swapped (used to prove the properties catch a broken rule)."""
        guards = tuple(
            Guard(g.name, g.label_vi, g.label_en, predicate, g.limit, g.on_trip) if g.name == name else g
            for g in self.guards
        )
        return MachineSpec(self.states, guards, self.transitions, self.initial, self.limits)


# ---------------------------------------------------------------------------------------------- states

_OUTCOME_READS = ("state", "text", "reason", "reply_text", "path", "answer", "evidence", "frame", "memory_loaded")
_OUTCOME_WRITES = ("reply_text", "reason", "citations", "quick_replies", "frame")
_RETRIEVAL_WRITES = ("path", "evidence", "safety_evidence", "routes_found", "failure")
_SINGLE_WRITES = (*_RETRIEVAL_WRITES, "indications_found", "frame")


def _outcome_state(name: str, label_vi: str, label_en: str) -> StateSpec:
    return StateSpec(name, "outcome", label_vi, label_en, "finish", outcome.outcome, _OUTCOME_READS, _OUTCOME_WRITES)


STATES: tuple[StateSpec, ...] = (
    StateSpec("ready", "resting", "Sẵn sàng", "Ready: nothing pending", "receive"),
    StateSpec("awaiting_answer", "resting", "Chờ người dùng trả lời", "Awaiting the user's answer to a question",
              "receive"),
    StateSpec("understanding", "work", "Hiểu câu hỏi", "Understanding the turn", "understood",
              understanding.understand, reads=("text", "history", "prior_frame", "pending", "budget"),
              writes=("frame", "understanding_failed", "understood_by", "query", "failure"), calls_model=True),
    StateSpec("routing", "work", "Định tuyến", "Routing (first match wins)", "route"),
    StateSpec("asking", "work", "Soạn câu hỏi lại", "Composing a clarifying question", "ask", asking.ask,
              reads=("reason", "frame", "routes_found", "indications_found"), writes=("reply_text", "quick_replies", "new_pending")),
    StateSpec("retrieving_single", "work", "Tra cứu một thuốc", "Retrieving: single drug", "retrieved",
              retrieving.retrieve_single, reads=("state", "frame", "query"), writes=_SINGLE_WRITES),
    StateSpec("retrieving_interaction", "work", "Tra cứu tương tác", "Retrieving: interaction", "retrieved",
              retrieving.retrieve_interaction, reads=("state", "frame"), writes=_RETRIEVAL_WRITES),
    StateSpec("retrieving_condition", "work", "Tra cứu theo bệnh/chỉ định", "Retrieving: condition → drug",
              "retrieved", retrieving.retrieve_condition, reads=("state", "frame"),
              writes=(*_RETRIEVAL_WRITES, "candidates", "frame")),
    StateSpec("reviewing_safety", "work", "Rà soát an toàn theo bệnh nhân", "Patient safety review", "reviewed",
              retrieving.review_safety, reads=("state", "frame", "candidates", "evidence"),
              writes=("evidence", "safety_evidence", "routes_found", "failure")),
    StateSpec("generating", "work", "Soạn câu trả lời", "Generating the answer", "generated", generating.generate,
              reads=("frame", "path", "query", "evidence", "candidates", "budget"), writes=("answer", "failure"),
              calls_model=True),
    StateSpec("calculating", "work", "Tính liều theo cân nặng cho bệnh nhân",
              "Calculating this patient's amount from the weight-based line (code computes)", "calculated",
              calculating.calculate, reads=("answer", "frame", "evidence"), writes=("answer",)),
    StateSpec("verifying", "work", "Kiểm chứng trích dẫn và số liệu", "Verifying citations, numbers, entailment",
              "verified", verifying.verify, reads=("answer", "frame", "path", "query", "evidence", "candidates", "budget"),
              writes=("grounding", "entailment", "failure"), calls_model=True),
    StateSpec("repairing", "work", "Bổ sung phần bị thiếu", "Completeness repair", "repaired", repairing.repair,
              reads=("answer", "entailment", "repairs", "frame", "path", "query", "evidence", "candidates", "budget"),
              writes=("answer", "repairs", "failure"), calls_model=True),
    _outcome_state("answered", "Đã trả lời", "Answered"),
    _outcome_state("flagged", "Cần đối chiếu PDF", "Verify in the PDF"),
    _outcome_state("clarified", "Đã hỏi lại", "Asked a clarifying question"),
    _outcome_state("abstained", "Từ chối trả lời", "Abstained"),
)


# ---------------------------------------------------------------------------------------------- guards


def _frame(pred: Callable[..., bool]) -> Predicate:
    return lambda ctx: pred(ctx.frame)


def _budget_remaining(ctx: TurnContext) -> bool:
    return ctx.budget.can_call()


def _streak_exhausted(ctx: TurnContext) -> bool:
    # The streak the clarify being composed would leave (states/streak.py: a turn that filled a slot the pending
    # question asked for is progress and does not count; one that filled nothing does). The limit is the spec's
    # (ctx.limits is spec.limits, set by the runner): the one the labels, the fingerprint and the review show.
    answered = answered_something(ctx.prior_frame, ctx.frame, ctx.pending)
    return next_clarify_streak(ctx.clarify_streak, "clarify", ctx.reason, answered) > ctx.limits.max_consecutive_clarify


def _failed(kind: str) -> Predicate:
    return lambda ctx: ctx.failure is not None and ctx.failure.kind == kind


def _non_human(ctx: TurnContext) -> bool:
    return ctx.frame.non_human


# Both evidence guards read the one deterministic decision (never a model's self-reported confidence).
def _quarantined(ctx: TurnContext) -> bool:
    # A quarantined block wholly about renal (hepatic) impairment bears only on a patient who stated it.
    return decide(ctx.evidence, renal=bool(ctx.frame.renal), hepatic=bool(ctx.frame.hepatic)) is Decision.VERIFY_PDF


def _no_evidence(ctx: TurnContext) -> bool:
    return decide(ctx.evidence) is Decision.ABSTAIN


def _route_ambiguous(ctx: TurnContext) -> bool:
    return route_ambiguous(ctx.frame, ctx.routes_found)


def _route_not_documented(ctx: TurnContext) -> bool:
    return route_not_documented(ctx.frame, ctx.routes_found)


def _gestation_unknown(ctx: TurnContext) -> bool:
    return gestation_unknown(ctx.frame, ctx.evidence)


def _indication_ambiguous(ctx: TurnContext) -> bool:
    return indication_ambiguous(ctx.frame, ctx.indications_found)


def _needs_safety_review(ctx: TurnContext) -> bool:
    return ctx.frame.has_patient_context


def _no_safety_evidence(ctx: TurnContext) -> bool:
    return not ctx.safety_evidence


def _calculation_applies(ctx: TurnContext) -> bool:
    return calculating.calculation_applies(ctx.frame, ctx.evidence, ctx.answer)


def _grounding_failed(ctx: TurnContext) -> bool:
    return ctx.grounding is not None and not ctx.grounding.ok


def _not_entailed(ctx: TurnContext) -> bool:
    return ctx.entailment is not None and not ctx.entailment.ok and not ctx.entailment.omissions


def _omission_repairable(ctx: TurnContext) -> bool:
    e = ctx.entailment
    return e is not None and bool(e.omissions) and ctx.repairs < ctx.max_repairs


def _omission_unrepaired(ctx: TurnContext) -> bool:
    e = ctx.entailment
    return e is not None and bool(e.omissions)


def build_guards(limits: Limits) -> tuple[Guard, ...]:
    max_clarify, max_wall_ms, max_calls = limits.max_consecutive_clarify, limits.max_wall_clock_ms, limits.max_llm_calls
    return (
        Guard("non_human_subject", "Đối tượng không phải người (dùng cho thú y)",
              "The subject is not human (veterinary use)", _non_human,
              on_trip="Từ chối / out_of_scope — trước mọi câu hỏi lại, để không trông như có thể tiếp tục."),
        Guard("dosing_population_unknown", "Hỏi liều, đã nêu thuốc, chưa rõ người lớn hay trẻ em (trừ thuốc bôi ngoài da)",
              "Dosing question naming a drug, population unknown (not a skin application)",
              _frame(routing.dosing_population_unknown),
              on_trip="Hỏi lại đối tượng (missing_population)."),
        Guard("pediatric_age_or_weight_missing", "Liều cho trẻ em nhưng thiếu tuổi hoặc cân nặng",
              "Paediatric dosing with age or weight missing", _frame(routing.pediatric_age_or_weight_missing),
              on_trip="Chỉ hỏi phần còn thiếu, nhắc lại phần đã biết."),
        Guard("understanding_failed", "Bước hiểu câu hỏi bị lỗi", "Understanding itself failed",
              lambda ctx: ctx.understanding_failed, on_trip="Từ chối / system_error."),
        Guard("understanding_needs_clarify", "Bộ hiểu câu hỏi yêu cầu làm rõ (không phải liều/bệnh/tổng quan)",
              "The understander asks to clarify (not dosing, condition or overview)",
              _frame(routing.understanding_needs_clarify), on_trip="Hỏi lại (needs_more_info)."),
        Guard("condition_ambiguous", "Hỏi thuốc theo bệnh/triệu chứng, bệnh chưa rõ",
              "Condition→drug question, condition ambiguous", _frame(routing.condition_ambiguous)),
        Guard("reverse_relation_not_indication", "Hỏi thuốc theo bệnh, quan hệ không phải chỉ định",
              "Condition→drug question whose relation is not 'indication'",
              _frame(routing.reverse_relation_not_indication)),
        Guard("condition_present", "Hỏi thuốc theo bệnh/triệu chứng, đã nêu bệnh",
              "Condition→drug question with the condition stated", _frame(routing.condition_present)),
        Guard("condition_turn_without_condition", "Hỏi thuốc theo bệnh nhưng chưa nêu bệnh",
              "Condition→drug question without a condition", _frame(routing.condition_turn_without_condition)),
        Guard("symptom_turn_without_symptom", "Hỏi thuốc theo triệu chứng nhưng chưa nêu triệu chứng",
              "Symptom→drug question without a symptom", _frame(routing.symptom_turn_without_symptom)),
        Guard("condition_relation_turn", "Hỏi quan hệ thuốc–bệnh khác chỉ định",
              "A drug–condition relation other than indication", _frame(routing.is_condition_relation)),
        Guard("attribute_missing", "Hỏi về thuốc nhưng chưa rõ muốn biết mục nào",
              "Drug question without the attribute asked", _frame(routing.attribute_missing)),
        Guard("smalltalk", "Chào hỏi, xã giao", "Smalltalk", _frame(routing.is_smalltalk)),
        Guard("out_of_scope", "Ngoài phạm vi Dược thư", "Out of the formulary's scope",
              _frame(routing.is_out_of_scope)),
        Guard("only_unknown_drugs", "Tên thuốc không có trong Dược thư", "Only names not in the formulary",
              _frame(routing.only_unknown_drugs)),
        Guard("no_drug", "Chưa nêu tên thuốc", "No drug named", _frame(routing.no_drug)),
        Guard("interaction_with_two_drugs", "Hỏi tương tác, có từ hai thuốc (hoặc một thuốc và một thuốc/nhóm ngoài "
              "Dược thư)", "Interaction with two or more drugs (or one and a drug or class without a monograph)",
              _frame(routing.interaction_with_two_drugs)),
        Guard("clarify_streak_exhausted",
              f"Đã hỏi lại {max_clarify} lần liên tiếp", f"{max_clarify} consecutive clarifying replies already",
              _streak_exhausted, limit=f"MAX_CONSECUTIVE_CLARIFY={max_clarify}",
              on_trip="Lần hỏi lại tiếp theo thành từ chối / clarify_loop_exhausted: đề nghị nêu lại đầy đủ câu hỏi "
                      "hoặc bắt đầu cuộc hội thoại mới. Mọi kết quả không phải hỏi lại đặt lại bộ đếm."),
        Guard("budget_remaining",
              f"Còn ngân sách lượt (≤ {max_wall_ms} ms, ≤ {max_calls} lệnh gọi LLM)",
              f"Turn budget left (≤ {max_wall_ms} ms, ≤ {max_calls} LLM calls)", _budget_remaining,
              limit=f"MAX_WALL_CLOCK_MS={max_wall_ms}; MAX_LLM_CALLS_PER_TURN={max_calls}",
              on_trip="Khi không còn: từ chối / budget_exhausted. budget.require() cũng được gọi ngay trước mỗi "
                      "lệnh gọi nhà cung cấp."),
        Guard("budget_spent_during_call", "Hết ngân sách ngay trước một lệnh gọi LLM",
              "The budget ran out before a provider call", _failed("budget"), on_trip="Từ chối / budget_exhausted."),
        Guard("provider_failed", "Nhà cung cấp mô hình lỗi hoặc trả dữ liệu sai",
              "The provider failed or returned invalid output",
              lambda ctx: ctx.failure is not None and ctx.failure.kind in ("provider", "output"),
              on_trip="Từ chối (đóng an toàn)."),
        Guard("index_unavailable", "Chỉ mục Dược thư không phục vụ được", "The formulary index cannot serve",
              _failed("index"), on_trip="Từ chối / index_unavailable: không trả lời khi không tra được nguồn."),
        Guard("no_evidence", "Không tìm thấy đoạn nào trong Dược thư", "No evidence retrieved", _no_evidence),
        Guard("evidence_quarantined", "Có bảng/khối chưa trích xuất được (phải đối chiếu PDF)",
              "Evidence contains a quarantined block (verify in the PDF)", _quarantined,
              on_trip="verify_pdf: không bao giờ sinh câu trả lời trên nội dung cách ly."),
        Guard("route_ambiguous", "Dữ liệu liều có nhiều đường dùng, chưa chọn đường dùng",
              "Dosage evidence has several routes and none was chosen", _route_ambiguous,
              on_trip="Hỏi lại đường dùng, các đường tìm thấy là lựa chọn nhanh."),
        Guard("route_not_documented", "Đường dùng được chọn không có trong dữ liệu liều",
              "The chosen route has no regimen in the dosage evidence", _route_not_documented,
              on_trip="Hỏi lại với các đường dùng Dược thư có; không tự đổi sang đường khác."),
        Guard("gestation_unknown", "Liều trẻ sơ sinh khác nhau theo tuổi thai, chưa biết tuổi thai",
              "A newborn's dose lines differ by gestational age, which is not known", _gestation_unknown,
              on_trip="Hỏi bé sinh đủ tháng hay thiếu tháng (tuổi thai bao nhiêu tuần); không đưa liều của nhóm khác."),
        Guard("indication_ambiguous", "Hỏi liều chưa nêu chỉ định; không có liều chung cho bệnh nhân, liều nằm dưới "
              "từ ba chỉ định trở lên",
              "Dose question naming no indication; no general dose line for the patient, whose lines sit under three "
              "or more indications",
              _indication_ambiguous,
              on_trip="Hỏi lại chỉ định, các chỉ định Dược thư ghi liều là lựa chọn nhanh; không tự chọn một chỉ định."),
        Guard("needs_safety_review", "Có bối cảnh bệnh nhân (thai, cho con bú, suy thận/gan, bệnh nền)",
              "Patient context present (pregnancy, breastfeeding, renal/hepatic, comorbidity)", _needs_safety_review),
        Guard("no_safety_evidence", "Không có dữ liệu an toàn cho bối cảnh bệnh nhân",
              "No safety evidence for the patient context", _no_safety_evidence),
        Guard("calculation_applies", "Liều theo cân nặng, đã biết cân nặng, dòng liều áp dụng cho bệnh nhân",
              "Weight-based dose, weight known, the regimen line applies to this patient", _calculation_applies,
              on_trip="Mã tính lượng hoạt chất cho cân nặng này, áp mọi mức tối đa Dược thư ghi; không tính khi nhóm "
                      "bệnh nhân bị loại trừ, cân nặng thiếu/không hợp lý, dòng liều thuộc đường dùng/chỉ định khác, "
                      "nội dung cách ly hoặc dòng liều không đọc được chắc chắn."),
        Guard("grounding_failed", "Có số liệu/trích dẫn không khớp nguồn", "A number or citation is not grounded",
              _grounding_failed, on_trip="Từ chối / ungrounded_answer."),
        Guard("not_entailed", "Nội dung không được đoạn trích dẫn xác nhận", "A claim is not entailed by its block",
              _not_entailed, on_trip="Từ chối / not_entailed."),
        Guard("omission_repairable", "Thiếu ý có trong nguồn, còn lượt bổ sung",
              "A grounded omission, repair still allowed", _omission_repairable),
        Guard("omission_unrepaired", "Vẫn thiếu ý sau khi đã bổ sung", "Still an omission after repair",
              _omission_unrepaired, on_trip="Từ chối / incomplete_answer."),
    )


# ----------------------------------------------------------------------------------------- transitions

_T = TransitionSpec
_RATIONALE_POPULATION = (
    "Không trả lời liều khi chưa biết đối tượng: liều người lớn và trẻ em khác nhau trong Dược thư. "
    "Mô hình chỉ trích xuất; mã quyết định trường nào bắt buộc."
)
_RATIONALE_PEDIATRIC = (
    "Trẻ em cần CẢ tuổi và cân nặng vì Dược thư phân nhánh theo cả hai (paracetamol: theo nhóm tuổi và theo "
    "mg/kg). Câu hỏi chỉ hỏi phần còn thiếu và nhắc lại phần đã biết."
)
_RATIONALE_ROUTE = (
    "Đường dùng KHÔNG phải trường bắt buộc chung: nếu dữ liệu liều chỉ có một đường dùng thì trả lời ngay; "
    "nếu có nhiều đường thì hỏi lại với các đường tìm thấy — tránh hỏi dồn khi câu hỏi đã đủ rõ."
)
_RATIONALE_GESTATION = (
    "Trẻ sơ sinh chưa rõ tuổi thai không thuộc nhóm liều theo tuổi thai nào (\"Sơ sinh 28 - 37 tuần chỉnh theo tuổi "
    "thai\", \"Sơ sinh đủ tháng\"): khi liều của bé khác nhau theo tuổi thai, hỏi lại — không đưa liều của nhóm khác "
    "hay chỉ một dòng còn lại (liều dự phòng phẫu thuật) thay cho liều điều trị."
)
_RATIONALE_INDICATION = (
    "Liều của một chỉ định khác là liều của bệnh nhân khác (aspirin giảm đau 300 - 900 mg, chống kết tập tiểu cầu "
    "75 - 150 mg/ngày): khi câu hỏi chưa nêu chỉ định mà liều của bệnh nhân nằm dưới nhiều chỉ định, hỏi lại với "
    "các chỉ định Dược thư ghi; không bao giờ tự chọn một."
)
_RATIONALE_CALCULATOR = (
    "Không mô hình nào làm phép tính: mã tính lượng hoạt chất theo cân nặng từ dòng liều được trích dẫn và áp mọi "
    "mức tối đa; bước kiểm chứng chỉ nhận con số tính được khi phép tính lặp lại đúng từ văn bản trích dẫn và cân "
    "nặng của bệnh nhân. Liều cố định theo nhóm tuổi giữ nguyên như Dược thư ghi."
)
_RATIONALE_BREAKER = (
    "Giới hạn hỏi lại: mô hình có thể hỏi lại mãi cùng một câu (phát hiện 2026-08-07); đây là chặn ở mức mã. "
    "Bộ đếm được lưu cùng hội thoại nên khởi động lại hay worker khác không đặt lại được."
)


def _budgeted(trigger: str, source: str, dest: str, rationale: str = "") -> tuple[TransitionSpec, ...]:
    """A transition into an LLM-calling state, with the budget guard and its abstain fallback."""
    return (
        _T(trigger, source, dest, ("budget_remaining",), rationale=rationale),
        _T(trigger, source, "abstained", (), outcome="abstain", reason="budget_exhausted",
           rationale="Hết ngân sách lượt (thời gian hoặc số lệnh gọi LLM)."),
    )


def _provider_failures(trigger: str, source: str, reason: str) -> tuple[TransitionSpec, ...]:
    return (
        _T(trigger, source, "abstained", ("budget_spent_during_call",), outcome="abstain", reason="budget_exhausted"),
        _T(trigger, source, "abstained", ("provider_failed",), outcome="abstain", reason=reason,
           rationale="Lỗi nhà cung cấp luôn đóng an toàn: không có câu trả lời thay thế."),
    )


def _index_failure(trigger: str, source: str) -> tuple[TransitionSpec, ...]:
    # Checked first: with the index down there is no evidence, and "no evidence" must not read as "the formulary
    # has nothing on this" (or, for an interaction, as anything at all).
    return (_T(trigger, source, "abstained", ("index_unavailable",), outcome="abstain", reason="index_unavailable",
               rationale="Chỉ mục lỗi thì đóng an toàn; không coi là \"không có dữ liệu\"."),)


ROUTING_TABLE: tuple[TransitionSpec, ...] = (
    _T("route", "routing", "abstained", ("non_human_subject",), "1", "abstain", "out_of_scope",
       "Câu hỏi về động vật (thú y) nằm ngoài phạm vi; kiểm tra trước mọi câu hỏi lại để không trông như có thể "
       "tiếp tục."),
    _T("route", "routing", "asking", ("dosing_population_unknown",), "2", "clarify", "missing_population",
       _RATIONALE_POPULATION),
    _T("route", "routing", "asking", ("pediatric_age_or_weight_missing",), "3", "clarify",
       "missing_pediatric_age_or_weight", _RATIONALE_PEDIATRIC),
    _T("route", "routing", "abstained", ("understanding_failed",), "4", "abstain", "system_error",
       "Bước hiểu câu hỏi lỗi thì đóng an toàn."),
    _T("route", "routing", "asking", ("understanding_needs_clarify",), "4", "clarify", "needs_more_info",
       "Chỉ dùng yêu cầu làm rõ của bộ hiểu khi mã không có quy tắc riêng (liều, bệnh, tổng quan)."),
    _T("route", "routing", "asking", ("condition_ambiguous",), "5", "clarify", "ambiguous_condition"),
    _T("route", "routing", "abstained", ("reverse_relation_not_indication",), "6", "abstain",
       "unsupported_reverse_relation", "Chỉ hỗ trợ tra ngược theo chỉ định."),
    _T("route", "routing", "retrieving_condition", ("condition_present",), "7", None, None,
       "Danh sách thuốc lấy từ các đoạn chỉ định tìm được, không bao giờ từ khung câu hỏi; không xếp hạng."),
    _T("route", "routing", "asking", ("condition_turn_without_condition",), "8", "clarify", "no_condition"),
    _T("route", "routing", "asking", ("symptom_turn_without_symptom",), "8", "clarify", "no_indication"),
    _T("route", "routing", "abstained", ("condition_relation_turn",), "9", "abstain", "unsupported_reverse_relation"),
    _T("route", "routing", "asking", ("attribute_missing",), "10", "clarify", "missing_attribute"),
    _T("route", "routing", "answered", ("smalltalk",), "11", "answerable", "smalltalk", "Lời chào cố định."),
    _T("route", "routing", "abstained", ("out_of_scope",), "12", "abstain", "out_of_scope"),
    _T("route", "routing", "abstained", ("only_unknown_drugs",), "13", "abstain", "drug_not_in_formulary",
       "Nêu rõ tên thuốc không có trong Dược thư, không đoán thuốc khác."),
    _T("route", "routing", "asking", ("no_drug",), "14", "clarify", "no_drug"),
    _T("route", "routing", "retrieving_interaction", ("interaction_with_two_drugs",), "15", None, None,
       "Bằng chứng là đoạn trong mục tương tác của thuốc này nêu tên thuốc kia (hoặc nhóm của nó)."),
    _T("route", "routing", "retrieving_single", (), "16", None, None,
       "Một thuốc: tra đúng mục bằng bộ lọc (drug_id, section_key)."),
)


def build_transitions() -> tuple[TransitionSpec, ...]:
    return (
        *_budgeted("receive", "ready", "understanding"),
        *_budgeted("receive", "awaiting_answer", "understanding"),
        # Only a spent budget abstains here; any other understanding failure goes on to routing, where row 1
        # (non-human, decided on the text) still comes first and row 4 abstains with system_error.
        _T("understood", "understanding", "abstained", ("budget_spent_during_call",), outcome="abstain",
           reason="budget_exhausted"),
        _T("understood", "understanding", "routing"),
        *ROUTING_TABLE,
        _T("ask", "asking", "abstained", ("clarify_streak_exhausted",), outcome="abstain",
           reason="clarify_loop_exhausted", rationale=_RATIONALE_BREAKER),
        _T("ask", "asking", "clarified", (), outcome="clarify"),
        # single drug
        *_index_failure("retrieved", "retrieving_single"),
        _T("retrieved", "retrieving_single", "abstained", ("no_evidence",), outcome="abstain", reason="no_evidence"),
        _T("retrieved", "retrieving_single", "flagged", ("evidence_quarantined",), outcome="verify_pdf",
           reason="quarantined_content", rationale="Nội dung cách ly không bao giờ được dùng để sinh câu trả lời."),
        _T("retrieved", "retrieving_single", "asking", ("route_ambiguous",), outcome="clarify",
           reason="ambiguous_route", rationale=_RATIONALE_ROUTE),
        _T("retrieved", "retrieving_single", "asking", ("route_not_documented",), outcome="clarify",
           reason="route_not_documented",
           rationale="Không đưa liều của đường dùng khác khi người dùng đã chọn một đường: hỏi lại với các đường có."),
        _T("retrieved", "retrieving_single", "asking", ("gestation_unknown",), outcome="clarify",
           reason="missing_gestation", rationale=_RATIONALE_GESTATION),
        _T("retrieved", "retrieving_single", "asking", ("indication_ambiguous",), outcome="clarify",
           reason="ambiguous_indication", rationale=_RATIONALE_INDICATION),
        *_budgeted("retrieved", "retrieving_single", "generating"),
        # interaction
        *_index_failure("retrieved", "retrieving_interaction"),
        _T("retrieved", "retrieving_interaction", "abstained", ("no_evidence",), outcome="abstain",
           reason="no_interaction_evidence",
           rationale="Không tìm thấy trong mục tương tác của từng thuốc — KHÔNG có nghĩa là an toàn khi phối hợp."),
        _T("retrieved", "retrieving_interaction", "flagged", ("evidence_quarantined",), outcome="verify_pdf",
           reason="quarantined_content",
           rationale="Giữ cả phần cần đối chiếu PDF: bảng tương tác chưa trích xuất có thể chứa đúng cặp thuốc này."),
        *_budgeted("retrieved", "retrieving_interaction", "generating"),
        # condition → drug
        *_index_failure("retrieved", "retrieving_condition"),
        _T("retrieved", "retrieving_condition", "abstained", ("no_evidence",), outcome="abstain",
           reason="no_indication_evidence"),
        _T("retrieved", "retrieving_condition", "reviewing_safety", ("needs_safety_review",)),
        _T("retrieved", "retrieving_condition", "flagged", ("evidence_quarantined",), outcome="verify_pdf",
           reason="quarantined_content"),
        *_budgeted("retrieved", "retrieving_condition", "generating"),
        *_index_failure("reviewed", "reviewing_safety"),
        _T("reviewed", "reviewing_safety", "abstained", ("no_safety_evidence",), outcome="abstain",
           reason="no_safety_evidence", rationale="Không suy ra thuốc là phù hợp/an toàn khi thiếu dữ liệu an toàn."),
        _T("reviewed", "reviewing_safety", "flagged", ("evidence_quarantined",), outcome="verify_pdf",
           reason="quarantined_content"),
        *_budgeted("reviewed", "reviewing_safety", "generating"),
        # generation and verification
        *_provider_failures("generated", "generating", "generation_unavailable"),
        _T("generated", "generating", "calculating", ("calculation_applies",), rationale=_RATIONALE_CALCULATOR),
        *_budgeted("generated", "generating", "verifying"),
        *_budgeted("calculated", "calculating", "verifying"),
        *_provider_failures("verified", "verifying", "verification_unavailable"),
        _T("verified", "verifying", "abstained", ("grounding_failed",), outcome="abstain", reason="ungrounded_answer",
           rationale="Mọi con số kèm đơn vị phải có trong đoạn được trích dẫn; mọi trích dẫn phải là bằng chứng đã tra."),
        _T("verified", "verifying", "abstained", ("not_entailed",), outcome="abstain", reason="not_entailed"),
        _T("verified", "verifying", "repairing", ("omission_repairable", "budget_remaining"),
           rationale="Bổ sung khi bộ kiểm chứng báo thiếu một ý có trong nguồn; sau đó kiểm chứng lại."),
        _T("verified", "verifying", "abstained", ("omission_repairable",), outcome="abstain", reason="budget_exhausted"),
        _T("verified", "verifying", "abstained", ("omission_unrepaired",), outcome="abstain",
           reason="incomplete_answer"),
        _T("verified", "verifying", "answered", (), outcome="answerable"),
        *_provider_failures("repaired", "repairing", "generation_unavailable"),
        *_budgeted("repaired", "repairing", "verifying"),
        # back to rest
        _T("finish", "clarified", "awaiting_answer"),
        _T("finish", "answered", "ready"),
        _T("finish", "flagged", "ready"),
        _T("finish", "abstained", "ready"),
    )


def build_spec(max_clarify: int = 4, max_wall_ms: int = 40_000, max_calls: int = 8) -> MachineSpec:
    limits = Limits(max_clarify, max_wall_ms, max_calls)
    return MachineSpec(states=STATES, guards=build_guards(limits), transitions=build_transitions(), limits=limits)
