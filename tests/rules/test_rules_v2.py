"""Scenarios for the rules-v2 changes: every reaction played in a window resolves strictly in
play order (R5.3, D11), `original` raze-first stops leave the Hideout unattacked (D40),
Turncoat on pending attackers per preset (R5.7, D15), kidnapped gangsters stay HIDDEN until
their owner's next Move Gangsters step (R3.5), and Bribe naming the k-th Police (R5.5)."""

from noir_env import core
from noir_env.core import constants as C
from noir_env.core.observe import O_KEPT, O_QUEUE, QF, QUEUE_OFFSETS

from .helpers import (
    act,
    attack,
    begin,
    blank,
    business,
    can,
    events,
    force_dice,
    give,
    hidden,
    legal,
    money,
    pass_all,
)


# --- 1. play order for every reaction (R5.3) ---------------------------------------------------
def test_turncoat_after_a_driveby_on_the_same_gangster_finds_it_dead():
    """R5.3 [NB-EN p.8 "If more than one player plays a reaction card, the first card on the
    table is resolved first"]: seat 0 shoots seat 2's Speakeasy (3 damage), then seat 1 plays
    a Turncoat on the 2 standing there. The Drive-by acts first and kills the 2; the Turncoat
    finds nobody and takes nothing. (Rules v1 let the Turncoat act at once and save it.)"""
    s = blank(4)
    t = business(s, 2, 3, [2])
    business(s, 0, 1)
    give(s, 0, C.DRIVEBY, C.B1)
    give(s, 1, C.TURNCOAT)
    begin(s, 0, "deploy")
    force_dice(s, 3)
    act(s, "play:driveby")  # the only target; a response window opens (R5.2c)
    assert s.win_kind[0] == C.WIN_RESPONSE and s.actor[0] == 1
    act(s, "play:turncoat")  # the only target and power, chosen unasked (R2.5)
    # the window closed (nobody holds a card any more): Drive-by first, then the Turncoat
    assert events(s, C.EV_DRIVEBY) == [[2, t, 3, 1, 0, 3, 0]]  # 1 dead, the business stands
    assert events(s, C.EV_TURNCOAT) == []
    assert events(s, C.EV_TURNCOAT_MISS) == [[1, 2, t, 2, 0, 0, 0]]
    assert s.hand[0, 1, C.G2] == 0 and s.discard[0, C.G2] == 1 and s.discard[0, C.TURNCOAT] == 1
    assert s.biz[0, 2, t] == 3 and s.biz_g[0, 2, t].sum() == 0
    assert s.phase[0] == C.PH_DEPLOY and s.actor[0] == 0


def test_turncoat_before_a_driveby_takes_the_gangster_first():
    """R5.3, the other order: a Turncoat played before the Drive-by takes the 2 at the close,
    then the Drive-by's 3 damage hits the empty Speakeasy, which falls (3 >= 0 + 3, R3.3)."""
    s = blank(4)
    t = business(s, 2, 3, [2])
    other = business(s, 3, 1, [1])
    business(s, 0, 1)
    give(s, 0, C.POLICE)
    give(s, 1, C.TURNCOAT)
    give(s, 3, C.DRIVEBY)
    begin(s, 0, "deploy")
    act(s, "play:police", f"target:+3:slot{other}")
    act(s, "play:turncoat", f"target:+1:slot{t}")  # seat 1: queued second
    force_dice(s, 3)
    act(s, "play:driveby", f"target:+3:slot{t}")  # seat 3: queued third
    assert events(s, C.EV_POLICE) == [[0, 3, other, 1, 0, 0, 0]]
    assert events(s, C.EV_TURNCOAT) == [[1, 2, t, 2, 0, 0, 0]]
    assert s.hand[0, 1, C.G2] == 1 and s.biz[0, 2, t] == 0  # taken, then the business fell


def test_every_card_in_a_window_waits_in_the_queue_in_play_order():
    """R5.3: a Turncoat and a Poker Night played in a window are queued like Police and
    Drive-bys (the observation and the state dict show them) and act at the close in play
    order; the log tells the Turncoat's play when it happens and its effect at the close."""
    s = blank(4)
    t = business(s, 2, 3, [2])
    business(s, 0, 1)
    give(s, 0, C.DRIVEBY, C.B1)
    give(s, 1, C.TURNCOAT)
    give(s, 2, C.DRIVEBY)
    give(s, 3, C.POKER)
    begin(s, 0, "deploy")
    force_dice(s, 3)
    act(s, "play:driveby")
    act(s, "play:turncoat")
    act(s, "pass")  # seat 2
    assert s.actor[0] == 3 and s.rq_n[0] == 2
    assert s.rq_kind[0, 1] == C.RQ_TURNCOAT and s.rq_power[0, 1] == 1
    obs = core.observe(s)[0]
    entry = O_QUEUE + QF  # the second card, seen by seat 3
    assert obs[entry + QUEUE_OFFSETS["kind"] + C.RQ_TURNCOAT - 1] == 1
    assert obs[entry + QUEUE_OFFSETS["power"]] == 2
    queue = core_dict(s)["queue"]
    assert queue[1] == {"kind": "turncoat", "player": 1, "target": 2, "at": t, "power": 2}
    act(s, "play:poker_night")
    assert s.actor[0] == 2 and s.rq_kind[0, 2] == C.RQ_POKER and events(s, C.EV_POKER) == []
    act(s, "pass")  # seat 2 again; everyone else holds nothing: the window closes
    codes = [e for e in logged_codes(s) if e in (C.EV_DRIVEBY, C.EV_TURNCOAT_MISS, C.EV_POKER)]
    assert codes == [C.EV_DRIVEBY, C.EV_TURNCOAT_MISS, C.EV_POKER]


def test_a_poker_night_at_ones_own_decision_point_acts_at_once():
    """R5.3 / D17: outside a window a Poker Night is the only card on the table: it acts at
    once and opens no window."""
    s = blank(4)
    business(s, 0, 1)
    give(s, 0, C.POKER, C.B1)
    begin(s, 0, "deploy")
    act(s, "play:poker_night")
    assert len(events(s, C.EV_POKER)) == 1
    assert s.phase[0] == C.PH_DEPLOY and s.win_kind[0] == C.WIN_NONE


def test_bribe_names_the_kth_police_of_the_window():
    """R5.5 (rules v2): `bribe:<k>` answers the k-th Police of the window, whatever other
    cards stand between them in the queue."""
    s = blank(4)
    a = business(s, 1, 2, [1])
    business(s, 3, 2, [2])
    business(s, 0, 1)
    give(s, 0, C.DRIVEBY)
    give(s, 1, C.POLICE)
    give(s, 2, C.POLICE, C.BRIBE)
    begin(s, 0, "deploy")
    act(s, "play:driveby", f"target:+1:slot{a}")  # queue: a Drive-by
    act(s, "play:police")  # seat 1, on the only business with gangsters it may raid
    act(s, "play:police", f"target:+3:slot{a}")  # seat 2; queue: ..., Police
    assert s.actor[0] == 2  # seats 3, 0 and 1 hold nothing: passed unasked
    act(s, "play:bribe")
    assert set(legal(s)) == {"bribe:1", "bribe:2"}  # two Police, at queue places 2 and 3
    act(s, "bribe:1")  # seat 1's Police on seat 3's business; then the window closes
    assert events(s, C.EV_BRIBE) == [[2, 0, 1, 1, 0, 0, 0]]  # called off: queue place 2
    assert [e[:3] for e in events(s, C.EV_POLICE)] == [[2, 1, a]]  # only seat 2's raided
    assert s.hidden[0, 3].sum() == 0


# --- 2. original: stopping after a raze (D40) ----------------------------------------------------
def test_raze_first_stop_leaves_the_hideout_open_to_attack_this_turn():
    """D40 [ORIG "remaining attackers can continue attacking the hideout"]: an attacker who
    stops after the raze has not attacked the Hideout, so it may still be declared a target
    in the same turn (rules v1 kept it marked)."""
    s = blank(4, "original")
    business(s, 0, 4, gangsters=[4])
    business(s, 0, 4, gangsters=[4])
    business(s, 0, 3, gangsters=[3])
    top = business(s, 1, 1, covers_hideout=True)
    money(s, 1, 2)
    begin(s, 0, "attack")
    attack(s, "+1:hideout", "g4@slot0", "g4@slot1")
    pass_all(s)
    act(s, "end")  # stop after the raze
    assert s.biz[0, 1, top] == 0 and s.attacked[0, 1, C.PLACE_HIDEOUT] == 0
    assert s.phase[0] == C.PH_ATTACK and can(s, "target:+1:hideout")


# --- 3. Turncoat on pending attackers, per preset (R5.7, D15) ------------------------------------
def _attack_window(rules: str):
    s = blank(4, rules)
    business(s, 0, 3, [2])
    business(s, 0, 1, [1])
    t = business(s, 1, 2)
    business(s, 1, 4)  # a Casino: seat 1 may take 4s (R5.7 ii)
    business(s, 2, 1, [1])  # one more target, so that the target is asked for
    give(s, 1, C.TURNCOAT)
    begin(s, 0, "attack")
    attack(s, f"+1:slot{t}", "g2@slot0")
    assert s.win_kind[0] == C.WIN_ATTACK and s.actor[0] == 1
    return s


def test_noirburg_turncoat_cannot_take_pending_attackers():
    """R5.7 [NB-EN p.9 "any Gangster deployed on a business or is HIDDEN"; p.7 attackers
    "become HIDDEN after the attack is resolved"]: pending attackers are neither, so under
    `noirburg` they are no Turncoat target; seat 0's 1 on its Bar is."""
    s = _attack_window("noirburg")
    act(s, "play:turncoat")
    assert not can(s, "target:+3:attack") and can(s, "target:+3:slot1")


def test_noirbrough_turncoat_takes_pending_attackers():
    """R5.7 [WEB §C "Turncoat can also be used to take Gangsters involved in an attack"]."""
    for rules in ("noirbrough", "original"):
        s = _attack_window(rules)
        act(s, "play:turncoat")
        assert can(s, "target:+3:attack"), rules


# --- 4. kidnapped gangsters stay HIDDEN until the next Move Gangsters (R3.5) ---------------------
def test_gangsters_kidnapped_in_their_owners_move_step_stay_hidden_until_the_next():
    """R3.5 [NB-EN p.7 kidnapped gangsters "remain in the HIDDEN state until the player's
    next Gangster Move action"]: seat 0 opens a response window in its Move Gangsters step
    (a Drive-by) and seat 1 kidnaps seat 0's 2 there. Back in the step, the 2 cannot be
    placed, `end` keeps it HIDDEN (it is not discarded), and the observation shows it; in
    seat 0's next Move Gangsters step it returns."""
    s = blank(4)
    home = business(s, 0, 3, [2])
    business(s, 0, 2, [1])
    business(s, 2, 1)
    give(s, 0, C.DRIVEBY)
    give(s, 1, C.POLICE)
    begin(s, 0, "move_gangsters")
    act(s, "play:driveby")  # on seat 2's Bar, the only target
    act(s, "play:police", f"target:+3:slot{home}")
    assert s.phase[0] == C.PH_MOVE and s.hidden[0, 0].tolist() == [0, 1, 0, 0]
    assert s.kept_hidden[0].tolist() == [0, 1, 0, 0]
    assert core.observe(s)[0, O_KEPT + 1] == 1
    assert not can(s, "from:g2@hidden") and can(s, "from:g1@slot1") and can(s, "end")
    act(s, "end")
    assert s.hidden[0, 0].tolist() == [0, 1, 0, 0] and s.discard[0, C.G2] == 0
    assert s.kept_hidden[0].sum() == 0
    begin(s, 0, "move_gangsters", turn_no=9)  # seat 0's next turn
    assert can(s, "from:g2@hidden") and not can(s, "end")


def test_gangsters_hidden_before_the_move_step_return_in_it():
    """R3.5: a HIDDEN gangster from before the step (here from an attack last turn) must be
    placed where one fits, while the one kidnapped in the step waits: the 1 is picked up
    unasked (the only legal move), the kidnapped 2 is not."""
    s = blank(4)
    business(s, 0, 3, [2])
    business(s, 0, 2)
    hidden(s, 0, 1)
    business(s, 2, 1)
    give(s, 0, C.DRIVEBY)
    give(s, 1, C.POLICE)
    begin(s, 0, "move_gangsters")
    act(s, "play:driveby")
    act(s, "play:police")  # seat 0's Speakeasy, the only target
    assert s.phase[0] == C.PH_MOVE_TO and s.sel_a[0] == 0  # the 1, from the HIDDEN pool
    act(s, "to:slot1")
    assert not can(s, "from:g2@hidden") and can(s, "end")


# --- helpers -------------------------------------------------------------------------------------
def core_dict(s) -> dict:
    from noir_env.core.serialize import state_to_dict

    return state_to_dict(s)


def logged_codes(s) -> list[int]:
    n = int(s.log_n[0])
    return [int(s.log[0, k % C.LOG_LEN, 0]) for k in range(max(0, n - C.LOG_LEN), n)]
