"""The flow of a game (R1, R2, R4): set-up, the mulligan, the steps of a turn, and the
dispatch of every action id to its effect. `apply_action` assumes the action is legal
(noir_env/core/mask.py decides that)."""

from noir_env.engine.jit import kernel

from ..engine.rng import randint, shuffle_prefix
from . import constants as C
from .board import (
    card_leaves_hand,
    draw_cards,
    free_slot,
    gain_money,
    has_business,
    in_first_round,
    log_event,
    next_alive,
    pay_bank,
    place_counts,
    seat_of,
    trigger_countdown,
)
from .combat import continue_into_hideout, resolve_attack
from .countdown import end_of_turn_checks
from .reactions import (
    bribe,
    open_window,
    poker_night,
    queue_reaction,
    reopen_round,
    resolve_window,
    spend_card,
    turncoat_take,
    window_pass,
)
from .rules import total_money

S = C.NUM_SLOTS


# --- set-up (R1) -----------------------------------------------------------------------------
@kernel
def init_game(s, r, i, n):
    """Deal a new game of n players in slot i; `s[i].rng` must hold the seeded state."""
    s[i].num_players = n
    total = total_money(n)
    for q in range(C.MAX_PLAYERS):
        s[i].alive[q] = 1 if q < n else 0
        s[i].money[q] = 3 if q < n else 0  # R1.2
        s[i].ho_top[q] = -1
    s[i].bank = total - 3 * n
    m = 0
    for t in range(C.NUM_CARD_TYPES):
        for _ in range(C.DECK_COUNTS[t]):
            s[i].deck[m] = t
            m += 1
    s[i].deck_n = m
    shuffle_prefix(s, i, s[i].deck, m)  # R1.3
    for q in range(n):
        draw_cards(s, i, q, C.HAND_SIZE)  # R1.4
    s[i].first_player = randint(s, i, n)  # R1.5
    s[i].atk_player = -1
    s[i].cd_holder = -1
    if r.mulligan_max > 0:  # R1.6
        s[i].phase = C.PH_MULLIGAN
        s[i].actor = s[i].first_player
        s[i].active = s[i].first_player
        s[i].count = 0
    else:
        start_turn(s, i, s[i].first_player)
        advance_step(s, r, i)


@kernel(inline="always")
def end_mulligan(s, r, i):
    """R1.6: the actor draws as many cards as they set aside; the next player follows."""
    x = s[i].actor
    draw_cards(s, i, x, s[i].count)
    log_event(s, i, C.EV_MULLIGAN, x, s[i].count)
    nxt = (x + 1) % s[i].num_players
    s[i].count = 0
    if nxt == s[i].first_player:
        start_turn(s, i, nxt)
        advance_step(s, r, i)
    else:
        s[i].actor = nxt


# --- turn steps (R2) -------------------------------------------------------------------------
@kernel
def start_turn(s, i, p):
    """Make p the active player at the start of their turn (call advance_step next)."""
    s[i].active = p
    s[i].actor = p
    s[i].attacked[:] = 0
    s[i].step_idx = -1
    log_event(s, i, C.EV_TURN, p, s[i].turn_no)


@kernel
def next_turn(s, r, i):
    """End-of-turn checks (R6), then the next living player's turn begins.
    Returns False if the game ended instead."""
    if end_of_turn_checks(s, r, i):
        return False
    s[i].turn_no += 1
    start_turn(s, i, next_alive(s, i, s[i].active))
    return True


@kernel
def advance_step(s, r, i):
    """Enter the next step of the rules' step order that has a decision (R2.1-R2.3)."""
    s[i].actor = s[i].active
    while True:
        s[i].step_idx += 1
        if enter_step(s, r, i, True):
            return


@kernel
def enter_step(s, r, i, may_window):
    """Begin the step at `step_idx`, first opening the window before it if the rules ask
    for one (R5.2d). Returns True if a decision (or the game's end) is now pending, False
    if the step took no decision and the turn goes on."""
    order = C.STEP_ORDER_PREP_FIRST if r.prep_first else C.STEP_ORDER_NOIRBURG
    st = order[s[i].step_idx]
    in_round_1 = r.restricted_first_round and in_first_round(s, i)
    if in_round_1 and (st == C.ST_TRIBUTE or st == C.ST_MOVE or st == C.ST_ATTACK):
        return False  # R2.3
    if may_window and (r.step_windows >> st) & 1:
        open_window(s, i, C.WIN_STEP, s[i].active, C.PH_WINDOW)
        return True
    if st == C.ST_TRIBUTE:
        collect_tribute(s, r, i, s[i].active)
        return False
    if st == C.ST_END:
        if r.end_turn_window:
            open_window(s, i, C.WIN_END_TURN, s[i].active, C.PH_WINDOW)  # R5.2(b)
            return True
        return not next_turn(s, r, i)
    if st == C.ST_MOVE:
        s[i].lock[:] = 0
        s[i].phase = C.PH_MOVE
    elif st == C.ST_ATTACK:
        s[i].phase = C.PH_ATTACK
    elif st == C.ST_DEPLOY:
        s[i].phase = C.PH_DEPLOY
    elif st == C.ST_MOVE_HIDEOUT:
        s[i].phase = C.PH_MOVE_HIDEOUT
    elif st == C.ST_DISCARD:
        s[i].count = 0
        s[i].phase = C.PH_DISCARD
    else:
        s[i].phase = C.PH_DRAW
    s[i].actor = s[i].active
    return True


@kernel(inline="always")
def collect_tribute(s, r, i, p):
    """R4.1: the Hideout brings 3, each business its income, as far as the bank can pay."""
    income = C.HIDEOUT_INCOME
    for t in range(S):
        income += s[i].biz[p, t]
    paid = min(income, s[i].bank)
    s[i].bank -= paid
    gain_money(s, r, i, p, paid)
    log_event(s, i, C.EV_TRIBUTE, p, paid, income)
    if (r.cd_bank == C.BANK_TRIGGER_SHORT and paid < income) or (
        r.cd_bank == C.BANK_TRIGGER_EMPTY and s[i].bank == 0
    ):
        trigger_countdown(s, r, i, p, C.CD_BANK)


@kernel(inline="always")
def finish_turn(s, r, i):
    """After the end-of-turn window: checks, then the next player's first step."""
    if next_turn(s, r, i):
        advance_step(s, r, i)


@kernel(inline="always")
def close_window(s, r, i):
    """R5.3: resolve what the window holds, then continue the turn."""
    kind = s[i].win_kind
    ret = s[i].win_ret
    cancelled = resolve_window(s, r, i)
    if kind == C.WIN_ATTACK:
        if not cancelled:
            resolve_attack(s, r, i)
        back_to_attack_step(s, i)
    elif kind == C.WIN_END_TURN:
        finish_turn(s, r, i)
    elif kind == C.WIN_STEP:
        if not enter_step(s, r, i, False):
            advance_step(s, r, i)
    else:
        s[i].phase = ret
        s[i].actor = s[i].active


@kernel
def back_to_attack_step(s, i):
    """After an attack: the next declaration, unless the game ended or a raze-first
    attacker must first choose whether to go on into the Hideout (R3.7)."""
    if s[i].phase != C.PH_GAME_OVER and s[i].phase != C.PH_CONTINUE:
        s[i].phase = C.PH_ATTACK
        s[i].actor = s[i].active


# --- actions ---------------------------------------------------------------------------------
@kernel(inline="always")
def end_step(s, r, i):
    """A_END: leave the current step (R2); in Move Gangsters, the HIDDEN gangsters that fit
    nowhere are discarded (R4.2)."""
    ph = s[i].phase
    if ph == C.PH_MULLIGAN:
        end_mulligan(s, r, i)
        return
    if ph == C.PH_MOVE:
        p = s[i].active
        left = 0
        for pw in range(4):  # those kidnapped in this step stay HIDDEN (R3.5)
            gone = s[i].hidden[p, pw] - s[i].kept_hidden[pw]
            s[i].discard[C.G1 + pw] += gone
            s[i].hidden[p, pw] -= gone
            s[i].kept_hidden[pw] = 0
            left += gone
        if left > 0:
            log_event(s, i, C.EV_MOVE_DISCARD, p, left)
    advance_step(s, r, i)


@kernel(inline="always")
def discard_card(s, i, t):
    """R1.6 / R4.7: the actor discards one card of type t face up."""
    x = s[i].actor
    card_leaves_hand(s, i, x, t)
    s[i].discard[t] += 1
    s[i].count += 1
    log_event(s, i, C.EV_DISCARD, x, t, int(s[i].phase == C.PH_MULLIGAN))


@kernel(inline="always")
def draw_step(s, r, i, n):
    """R4.8: draw n cards for n - 1 coins, then the step is over."""
    p = s[i].active
    pay_bank(s, i, p, n - 1)
    draw_cards(s, i, p, n)
    log_event(s, i, C.EV_DRAW, p, n, n - 1)
    advance_step(s, r, i)


@kernel(inline="always")
def deploy_business(s, r, i, t):
    """R4.5: pay income - 1 and open the business; a player's first one covers the Hideout."""
    p = s[i].active
    inc = t - C.B1 + 1
    first = not has_business(s, i, p)
    slot = free_slot(s, i, p)
    pay_bank(s, i, p, inc - 1)
    card_leaves_hand(s, i, p, t)
    s[i].biz[p, slot] = inc
    if r.first_business_on_hideout and first and s[i].ho_top[p] < 0:
        s[i].ho_top[p] = slot
    log_event(s, i, C.EV_DEPLOY, p, t, slot, int(s[i].ho_top[p] == slot))


@kernel(inline="always")
def put_down(s, i, dst):
    """A_TO: put the selected gangster down (Deploy R4.5, Move Gangsters R4.2)."""
    p = s[i].active
    pw = s[i].sel_a
    if s[i].phase == C.PH_DEPLOY_TO:
        pay_bank(s, i, p, pw)  # a gangster costs its power minus one
        card_leaves_hand(s, i, p, C.G1 + pw)
        place_counts(s, i, p, dst)[pw] += 1
        log_event(s, i, C.EV_DEPLOY, p, C.G1 + pw, dst)
        s[i].phase = C.PH_DEPLOY
        return
    if dst == C.PLACE_ASIDE:
        s[i].hidden[p, pw] += 1
    else:
        place_counts(s, i, p, dst)[pw] += 1
        s[i].lock[dst, pw] += 1  # R4.2: each gangster is put down at most once per step
    log_event(s, i, C.EV_MOVE, p, pw + 1, s[i].sel_b, dst)
    s[i].phase = C.PH_MOVE


@kernel(inline="always")
def pick_up(s, i, pw, src):
    """A_FROM: take a gangster from one of the active player's places: to move it (R4.2)
    or to add it to the declared attack (R3.1)."""
    p = s[i].active
    if src == C.PLACE_HIDDEN:
        s[i].hidden[p, pw] -= 1
    else:
        place_counts(s, i, p, src)[pw] -= 1
    if s[i].phase == C.PH_ATTACKERS:
        s[i].atk_g[pw] += 1
        return
    s[i].sel_a = pw
    s[i].sel_b = src
    s[i].phase = C.PH_MOVE_TO


@kernel(inline="always")
def discard_away(s, i):
    """A_DISCARD_AWAY (`away_discard`): the AWAY (HIDDEN) gangster just picked up goes to
    the discard pile instead of onto a place (R4.2)."""
    p = s[i].active
    pw = s[i].sel_a
    s[i].discard[C.G1 + pw] += 1
    log_event(s, i, C.EV_AWAY_DISCARD, p, pw + 1)
    s[i].phase = C.PH_MOVE


@kernel(inline="always")
def declare_target(s, r, i, q, t):
    """R3.1: name the attack target (D7). In the breach rules the business on top and the
    Hideout count as one target. In raze-first rules the Hideout is a building of its own,
    but an attack on a buried Hideout goes through the business on top first, so it is an
    attack on that business too (R3.7); the mask keeps a covered Hideout from being
    declared once the business on top was attacked."""
    s[i].atk_player = q
    s[i].atk_slot = t
    s[i].attacked[q, t] = 1
    top = s[i].ho_top[q]
    if top >= 0:
        if t == C.TGT_HIDEOUT:
            s[i].attacked[q, top] = 1
        elif t == top and not r.raze_first:
            s[i].attacked[q, C.PLACE_HIDEOUT] = 1
    s[i].phase = C.PH_ATTACKERS


@kernel(inline="always")
def confirm_attack(s, r, i):
    """R3.1: the attack is declared; a reaction window opens before it resolves (R5.2a)."""
    p = s[i].active
    a = s[i].atk_g
    log_event(s, i, C.EV_DECLARE, p, s[i].atk_player, s[i].atk_slot, a[0], a[1], a[2] + 16 * a[3])
    if r.attack_window:
        open_window(s, i, C.WIN_ATTACK, p, C.PH_ATTACK)
    else:
        resolve_attack(s, r, i)
        back_to_attack_step(s, i)


@kernel(inline="always")
def play_reaction(s, r, i, kind):
    """A_PLAY: the actor plays a reaction card (R5). Targeted kinds continue in
    PH_REACT_TARGET. In a window every card but a Bribe waits in the queue (R5.3); a Poker
    Night played at one's own decision point is the only card on the table: it acts at once."""
    x = s[i].actor
    spend_card(s, r, i, x, C.PLAY_CARD[kind])
    s[i].rt_kind = kind
    s[i].rt_ret = s[i].phase
    if kind == C.PLAY_POKER:
        log_event(s, i, C.EV_PLAY, x, kind)
        if s[i].rt_ret == C.PH_WINDOW:
            queue_reaction(s, i, x, C.RQ_POKER, x, 0, 0)
        else:
            poker_night(s, r, i, x)
        after_play(s, i, x)
    elif kind == C.PLAY_POLICE_CANCEL:
        log_event(s, i, C.EV_PLAY, x, kind, s[i].atk_player, s[i].atk_slot)
        queue_reaction(s, i, x, C.RQ_CANCEL, s[i].atk_player, s[i].atk_slot, 0)
        after_play(s, i, x)
    else:
        s[i].phase = C.PH_REACT_TARGET


@kernel
def after_play(s, i, x):
    """Back to where the reaction was played: the window's round reopens (R5.2)."""
    if s[i].rt_ret == C.PH_WINDOW:
        reopen_round(s, i, x)
    else:
        s[i].phase = s[i].rt_ret
        s[i].actor = x


@kernel(inline="always")
def choose_target(s, i, rel, t):
    """A_TARGET in PH_REACT_TARGET: the target of a Police kidnap, Drive-by or Turncoat.
    Police and Drive-by played outside a window open a response window (R5.2c)."""
    x = s[i].actor
    q = seat_of(s, i, x, rel)
    kind = s[i].rt_kind
    if kind == C.PLAY_TURNCOAT:
        s[i].sel_a = q
        s[i].sel_b = t
        s[i].phase = C.PH_TURNCOAT_POWER
        return
    log_event(s, i, C.EV_PLAY, x, kind, q, t)
    if s[i].rt_ret != C.PH_WINDOW:
        open_window(s, i, C.WIN_RESPONSE, x, s[i].rt_ret)
    queue_reaction(s, i, x, C.RQ_KIDNAP if kind == C.PLAY_POLICE else C.RQ_DRIVEBY, q, t, 0)
    if s[i].rt_ret == C.PH_WINDOW:
        reopen_round(s, i, x)


@kernel(inline="always")
def play_turncoat(s, r, i, pw):
    """A_POWER: the Turncoat's gangster is named (R5.7). In a window it waits in the queue
    and takes the gangster at the close if it is still there (R5.3, D11); at one's own
    decision point it is the only card on the table and takes it at once."""
    x = s[i].actor
    q = s[i].sel_a
    t = s[i].sel_b
    if s[i].rt_ret == C.PH_WINDOW:
        log_event(s, i, C.EV_PLAY, x, C.PLAY_TURNCOAT, q, t, pw + 1)
        queue_reaction(s, i, x, C.RQ_TURNCOAT, q, t, pw)
    else:
        turncoat_take(s, r, i, x, q, t, pw)
    after_play(s, i, x)


@kernel
def apply_action(s, r, i, a):
    """Carry out legal action `a` of the actor of game i."""
    if a == C.A_PASS:
        if window_pass(s, i):
            close_window(s, r, i)
    elif s[i].phase == C.PH_CONTINUE:  # A_CONTINUE or A_END (R3.7)
        s[i].phase = C.PH_ATTACK
        s[i].actor = s[i].active
        continue_into_hideout(s, r, i, a == C.A_CONTINUE)
    elif a == C.A_END:
        end_step(s, r, i)
    elif a == C.A_DISCARD_AWAY:
        discard_away(s, i)
    elif a == C.A_CONFIRM:
        confirm_attack(s, r, i)
    elif a < C.A_DRAW:
        discard_card(s, i, a - C.A_DISCARD)
    elif a < C.A_DEPLOY:
        draw_step(s, r, i, a - C.A_DRAW + 1)
    elif a < C.A_FROM:
        t = a - C.A_DEPLOY
        if t >= C.B1:
            deploy_business(s, r, i, t)
        else:
            s[i].sel_a = t
            s[i].phase = C.PH_DEPLOY_TO
    elif a < C.A_TO:
        k = a - C.A_FROM
        pick_up(s, i, k // C.NUM_SOURCES, k % C.NUM_SOURCES)
    elif a < C.A_HIDE_UNDER:
        put_down(s, i, a - C.A_TO)
    elif a <= C.A_HIDE_OPEN:
        p = s[i].active
        s[i].ho_top[p] = a - C.A_HIDE_UNDER if a < C.A_HIDE_OPEN else -1
        log_event(s, i, C.EV_HIDEOUT_MOVE, p, s[i].ho_top[p])
        advance_step(s, r, i)
    elif a < C.A_TARGET:
        play_reaction(s, r, i, a - C.A_PLAY)
    elif a < C.A_POWER:
        k = a - C.A_TARGET
        rel = k // C.NUM_TARGETS + 1
        t = k % C.NUM_TARGETS
        if s[i].phase == C.PH_ATTACK:
            declare_target(s, r, i, seat_of(s, i, s[i].actor, rel), t)
        else:
            choose_target(s, i, rel, t)
    elif a < C.A_BRIBE:
        play_turncoat(s, r, i, a - C.A_POWER)
    else:  # A_BRIBE + n: the window's n-th Police (0-based)
        x = s[i].actor
        bribe(s, i, x, a - C.A_BRIBE)
        after_play(s, i, x)
