"""The Textual app: views over the journal, controls on the engine facade."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path
from typing import Any

from textual import events, on, work
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Input, Label, TextArea

from inspector.bridge.listener import Listener, ListenError, ListenOptions, listen_for_relays
from inspector.demo import DEMO_CONFIG, scenarios_near
from inspector.engine import Engine
from inspector.hooks.approvals import ALLOW_ONCE, TIMEOUT, Verdict
from inspector.hosts.registry import host_named
from inspector.journal.jsonl import JsonlWriter
from inspector.journal.opening import Growth, Opening
from inspector.journal.private_file import JournalFileError, write_private
from inspector.journal.records import STATUS_HELD, Decision, Exchange, Record, Reload
from inspector.jsonrpc.stages import METHOD_FOR_STAGE, STAGE_FOR_METHOD
from inspector.pipeline.gate import AT_HOOK, AT_STAGE, InterceptTargetError, edit_effect
from inspector.reload.failed_start import failed_start_text
from inspector.reload.watcher import Reloader
from inspector.safe_text import one_line, printable
from inspector.scenario import load_scenario
from inspector.tui.binding_ids import binding_ids, shadowed_keys
from inspector.tui.clipboard import copy_text
from inspector.tui.screens.approval import ApprovalScreen, PromptView
from inspector.tui.screens.composer import COMPOSE_TITLE, ComposeRequest, ComposerScreen
from inspector.tui.screens.help import HelpScreen
from inspector.tui.screens.manual import ManualScreen
from inspector.tui.screens.rules import RulesScreen, RuleView
from inspector.tui.screens.save_as import SaveAsScreen
from inspector.tui.settings import Settings, load_settings, save_theme, settings_dir
from inspector.tui.themes import THEME_VARIABLE_DEFAULTS, load_themes
from inspector.tui.widgets.detail_pane import TITLES, DetailPane
from inspector.tui.widgets.event_stream import EventStream
from inspector.tui.widgets.exchange_list import ExchangeList
from inspector.tui.widgets.footer import KeptFooter
from inspector.tui.widgets.history_input import HistoryInput
from inspector.tui.widgets.hooks_panel import HooksPanel
from inspector.tui.widgets.record_list import RecordList
from inspector.tui.widgets.status_line import SessionState, StatusLine

REFRESH_S = 0.5
LISTEN_RETRY_S = 5.0  # how often a UI that could not listen for relays tries again
OPENING_TICK_S = 0.2  # a saved session being read: what was read joins the views this often
THIS_SESSION = Path("this session")  # the replay picker's entry for the journal on screen
DEFAULT_THEME = "inspector-dark"
# Actions that send to hooks or change what runs: not offered in a saved session.
NEEDS_HOOKS = frozenset(
    {
        "compose_request",
        "edit_selected",
        "focus_intercept",
        "forward",
        "forward_all",
        "drop",
        "clear_intercept",
        "pick_scenario",
        "replay",
        "reload",
        "toggle_watching",
    }
)
COMPOSER_SOURCE = "composer"  # the source of what the composer sends (Engine.send_to_hook)
COPIED_TOAST_S = 20  # long enough to read, or select, the one-liner
FILTER_SETTLE_S = 0.15  # the filter applies this long after the last key typed into it
FOCUS_FIELD_ACTIONS = frozenset({"focus_filter", "focus_intercept"})
INTERCEPT_AT = {AT_STAGE: "(at stage entry)", AT_HOOK: "(per hook)"}
# Reads as the field's state, as the intercept's does, not as an expression in effect.
FILTER_PLACEHOLDER = "off · type a filter to narrow the lists (f1: the filter language)"


@dataclass
class Session:
    """What the app opens: a live engine, optionally a scenario to play at once."""

    engine: Engine
    scenario: Path | None = None
    config_path: Path | None = None
    read_only: bool = False
    watch: bool = True  # reload when the config or a hook script is saved
    listen: ListenOptions | None = None  # where live agents' relays connect; None: nowhere
    opening: Opening | None = None  # a saved journal still being read (opening.py)


class JournalReread(Message):
    """The journal's store read the journal itself again (its index found stale while a view,
    the hooks panel's fold or the detail pane read records through it)."""


class InspectorApp(App[int]):
    TITLE = "hook-inspector"
    CSS = """
    #main { height: 1fr; }
    #left { width: 3fr; }
    DetailPane { width: 2fr; border-left: solid $panel; }
    EventStream { height: 9; border-top: solid $panel; }
    #filters { height: 1; }
    #filters Label { padding: 0 1; color: $text-muted; }
    #filters Input { border: none; height: 1; padding: 0; width: 1fr; }
    #filters Input.-invalid { background: $error 30%; }
    #filter-error { color: $error; width: 1fr; height: auto; padding: 0 1; display: none; }
    #filter-error.-shown { display: block; }
    /* Toasts sit above the filter and intercept fields, not over their hints. */
    ToastRack { margin-bottom: 2; }
    /* Narrow: the detail pane goes under the list, so the list keeps its columns. */
    Screen.-narrow #main { layout: vertical; }
    Screen.-narrow #left { width: 1fr; height: 1fr; }
    Screen.-narrow DetailPane { width: 1fr; height: 1fr; border-left: none;
                                border-top: solid $panel; }
    /* Short: the hooks panel and the event stream give rows to the list. */
    Screen.-short HooksPanel { max-height: 4; }
    Screen.-short EventStream { height: 5; }
    Screen.-tiny HooksPanel { display: none; }
    Screen.-tiny EventStream { height: 4; }
    """
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-tiny"), (24, "-short"), (36, "-tall")]
    BINDINGS = [
        Binding("c", "compose_request", "Compose", id="app.compose"),
        Binding("e", "edit_selected", "Edit/resend", id="app.resend"),
        # Priority: the app takes these keys before it hands the next ones on, so the focus has
        # moved when they are read, however many wait in the queue.
        Binding("slash", "focus_filter", "Filter", priority=True, id="app.filter"),
        Binding("i", "focus_intercept", "Intercept", priority=True, id="app.intercept"),
        Binding(
            "H", "toggle_highlight", "Highlight/hide by filter", show=False, id="app.highlight"
        ),
        Binding("a", "forward", "Forward", id="app.forward"),
        Binding("A", "forward_all", "Forward all", id="app.forward_all"),
        Binding("x", "drop", "Drop", id="app.drop"),
        Binding("X", "clear_intercept", "Clear intercept", show=False, id="app.clear_intercept"),
        Binding("s", "pick_scenario", "Scenario", id="app.scenario"),
        Binding("p", "answer_approval", "Approvals", show=False, id="app.approvals"),
        Binding("R", "rules", "Rules", show=False, id="app.rules"),
        Binding("ctrl+f", "search_detail", "Find in the detail tab", show=False, id="app.find"),
        Binding("y", "copy_shell", "Copy as shell", show=False, id="app.copy"),
        Binding(
            "u", "copy_raw('request')", "Copy the raw request", show=False, id="app.copy_request"
        ),
        Binding(
            "U", "copy_raw('response')", "Copy the raw response", show=False, id="app.copy_response"
        ),
        Binding(
            "Y", "save_one_liner", "Write shell one-liner to a file", show=False, id="app.copy_file"
        ),
        Binding("w", "save_journal", "Save as", show=False, id="app.save"),
        Binding("P", "replay", "Replay against current hooks", show=False, id="app.replay"),
        Binding("r", "reload", "Reload", show=False, id="app.reload"),
        Binding("W", "toggle_watching", "Pause/resume watching", show=False, id="app.watch"),
        *(
            Binding(
                str(number), f"detail_tab('{tab}')", f"{title} tab", show=False, id=f"app.tab_{tab}"
            )
            for number, (tab, title) in enumerate(TITLES.items(), start=1)
        ),
        Binding(
            "left_square_bracket", "step_tab(-1)", "Previous tab", show=False, id="app.tab_previous"
        ),
        Binding("right_square_bracket", "step_tab(1)", "Next tab", show=False, id="app.tab_next"),
        Binding("f1", "manual", "Manual", id="app.help"),
        Binding("question_mark", "help", "Keys", key_display="?", id="app.keys"),
        Binding("q", "quit", "Quit", id="app.quit"),
        Binding("escape", "back_to_list", "Back to the list", show=False, id="app.back"),
    ]

    def __init__(self, session: Session, *, settings_path: Path | None = None) -> None:
        super().__init__()
        self.session = session
        self.engine = session.engine
        self._settings_dir = settings_path or settings_dir()
        self._theme_is_chosen = False  # the theme set while starting up is not a choice to save
        self._settings_problems: list[str] = []
        self.settings: Settings = self._load_settings()
        self._approval_open = False
        self.reloader: Reloader | None = None
        self.listener: Listener | None = None
        self._wake_timer: Timer | None = None
        self._listen_timer: Timer | None = None  # the next try at the relays' socket
        self._closing = False
        self._filter_predicate: Callable[[Record], bool] | None = None
        self._highlighting = False  # the filter marks matching rows instead of hiding the rest
        self._filter_timer: Timer | None = None
        self._settling_filter: Callable[[Record], bool] | None = None  # applied once typing stops
        self._unsubscribe_journal: Callable[[], None] | None = None
        self._opening_timer: Timer | None = None
        self._reading = ""  # the status line's word on a saved journal still being read
        self._generation = 0  # the journal's store's when the views last chose what they show
        self._follow_rereads()

    # ---- set-up ----------------------------------------------------------------------------

    def _load_settings(self) -> Settings:
        settings, problems = load_settings(self._settings_dir, binding_ids(type(self)))
        self._settings_problems = [*problems, *shadowed_keys(settings.keymap, type(self))]
        return settings

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return dict(THEME_VARIABLE_DEFAULTS)

    def compose(self) -> ComposeResult:
        yield StatusLine(id="status")
        yield HooksPanel(
            self.engine.journal, lambda: self.engine.config, self._run_failed, id="hooks"
        )
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield ExchangeList(self.engine.journal, id="exchanges")
                yield EventStream(self.engine.journal, id="events")
            yield DetailPane(self.engine.journal, id="detail")
        with Horizontal(id="filters"):
            yield Label("filter")
            yield HistoryInput(placeholder=FILTER_PLACEHOLDER, id="filter")
            if not self.session.read_only:  # a saved session has nothing to hold
                yield Label("intercept")
                yield Input(placeholder="off · type a filter to hold requests", id="intercept")
        yield Label("", id="filter-error")  # its own row: a long message wraps, never cut
        yield KeptFooter()

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = False,
    ) -> None:
        """Every toast is plain text: its words may come from a hook, a relay or a file, so
        markup is never read and control characters show as what they are."""
        super().notify(
            printable(message),
            title=one_line(title),
            severity=severity,
            timeout=timeout,
            markup=False,
        )

    def on_mount(self) -> None:
        themes, failures = load_themes(self.settings.user_theme_dir)
        for theme in themes:
            self.register_theme(theme)
        wanted = self.settings.theme or DEFAULT_THEME
        self.theme = wanted if wanted in self.available_themes else DEFAULT_THEME
        self._theme_is_chosen = True  # from now on a new theme is the person's choice: saved
        for message in [*self._settings_problems, *failures]:
            self.notify(message, title="Settings", severity="warning")
        if self.settings.keymap:
            self.set_keymap(self.settings.keymap)
        self._unsubscribe_journal = self.engine.journal.subscribe(self._journal_grew)
        self._tick()
        if hasattr(self.engine, "approvals"):
            self.engine.approvals.subscribe(self._approvals_changed)
        self.engine.journal.subscribe(self._journalled)
        self.query_one(ExchangeList).focus()
        if not self.session.read_only:
            self.start_engine()
            self.reloader = Reloader(
                self.engine,
                self.session.config_path or DEMO_CONFIG,
                on_reload=self._reloaded,
            )
            if self.session.watch:
                self.watch_files()
        if self.session.opening is not None:
            self._follow_opening(self.session.opening)
        self._refresh_status()

    def watch_theme(self, theme: str) -> None:
        if self._theme_is_chosen:
            save_theme(self._settings_dir, theme)

    @work(exclusive=True, group="engine", exit_on_error=False)
    async def start_engine(self) -> None:
        await self.engine.start()
        self._refresh_hooks()
        if self.session.listen is not None:
            await self._listen(self.session.listen)
        if self.session.scenario is not None:
            await self._play(self.session.scenario)

    async def _listen(self, options: ListenOptions, *, again: bool = False) -> None:
        """Listen for relays; when another inspector holds the socket (or anything else is in
        the way), try again every LISTEN_RETRY_S until it is free, and say so once each way."""
        self._listen_timer = None
        try:
            listener = await listen_for_relays(self.engine, options)
        except ListenError as error:
            if not again:
                self.notify(
                    f"{error}; trying again every {LISTEN_RETRY_S:g} s",
                    title="Not listening for relays",
                    severity="warning",
                )
            if not self._closing:
                retry = partial(self._listen_again, options)
                self._listen_timer = self.set_timer(LISTEN_RETRY_S, retry, name="listen-again")
            return
        if self._closing:  # the app closed while it was starting
            await listener.close()
            return
        self.listener = listener
        if again:
            self.notify(f"Listening for relays on {listener.address} now.")
        self._refresh_status()

    @work(group="listen", exit_on_error=False)
    async def _listen_again(self, options: ListenOptions) -> None:
        await self._listen(options, again=True)

    async def on_unmount(self) -> None:
        self._closing = True
        if self._listen_timer is not None:
            self._listen_timer.stop()
        if self._unsubscribe_journal is not None:
            self._unsubscribe_journal()
        if self.session.opening is not None:
            self.session.opening.stop()  # an index cut short is removed, never used
        if self.listener is not None:
            await self.listener.close()  # relays get their fallback answers, not a dead hook's
        if not self.session.read_only:
            await self.engine.stop()

    # ---- a saved journal still being read -----------------------------------------------------

    def _follow_opening(self, opening: Opening) -> None:
        self.call_after_refresh(opening.resume)  # the first screen first, then the rest
        self._opening_timer = self.set_interval(OPENING_TICK_S, self._opening_grew, name="opening")
        self._reading = self._read_so_far(opening)

    def _opening_grew(self) -> None:
        opening = self.session.opening
        assert opening is not None
        journal = self.engine.journal
        growth = opening.catch_up(journal)
        if growth.added:
            for rows in self._record_lists():
                rows.grown()
        if growth.hooks is not None:
            for panel in self.query(HooksPanel):
                panel.grown(growth.hooks)
        self._reading = self._read_so_far(opening)
        if growth.ended:
            self._opening_ended(growth)
        self._refresh_status()

    def _read_so_far(self, opening: Opening) -> str:
        return f"reading {opening.progress():.0%} · {len(self.engine.journal):,} records so far"

    def _opening_ended(self, growth: Growth) -> None:
        if self._opening_timer is not None:
            self._opening_timer.stop()
            self._opening_timer = None
        self._reading = ""
        journal = self.engine.journal
        if growth.opened is not None:  # every line read: as if opened through its index
            growing = journal.records
            journal.reopened(growth.opened.records)
            growing.close()
            self._follow_rereads()
            self._views_reread()
        elif growth.error is not None:
            self._reading = "read in part: a bad line stopped the reading"
            self.notify(
                f"{growth.error}. The {len(journal):,} records read before it are shown; "
                "the journal was not indexed.",
                title="Journal read in part",
                severity="error",
                timeout=60,
            )

    def _follow_rereads(self) -> None:
        records = self.engine.journal.records
        self._generation = records.generation
        records.on_reread(lambda: self.post_message(JournalReread()))  # from any thread

    @on(JournalReread)
    def _journal_reread(self) -> None:
        """The store read the journal itself again (its index lied about a line): every list
        and the hooks panel choose what they show from it again, once."""
        generation = self.engine.journal.records.generation
        if generation == self._generation:
            return
        self._generation = generation
        self._views_reread()

    def _views_reread(self) -> None:
        """Every list and the hooks panel choose what they show from the journal again."""
        for rows in self._record_lists():
            rows.reread()
        for panel in self.query(HooksPanel):
            panel.reread()

    # ---- hot reload ------------------------------------------------------------------------

    @work(exclusive=True, group="watch", exit_on_error=False)
    async def watch_files(self) -> None:
        assert self.reloader is not None
        await self.reloader.watch()

    def _reloaded(self, record: Reload) -> None:
        self._refresh_hooks()
        if record.error:
            self.notify(record.error, title="Config not reloaded", severity="error", timeout=10)
            return
        if record.failed:
            self.notify(
                failed_start_text(record, self.engine.journal),
                title="Reloaded, but a hook did not start",
                severity="error",
                timeout=20,
            )
            return
        self.notify(record.changes or "nothing to restart", title="Reloaded")

    def action_reload(self) -> None:
        if self.reloader is None:
            self.notify("A saved session has nothing to reload.", severity="warning")
            return
        self._reload_by_hand()

    @work(group="watch-hand", exit_on_error=False)
    async def _reload_by_hand(self) -> None:
        assert self.reloader is not None
        await self.reloader.reload(trigger="hand")

    @work(group="watch-hand", exit_on_error=False)
    async def _catch_up(self) -> None:
        """Apply what was saved while watching was paused (nothing, if nothing changed)."""
        assert self.reloader is not None
        await self.reloader.reload()

    def action_toggle_watching(self) -> None:
        if self.reloader is None:
            return
        if self.reloader.paused:
            self.reloader.resume()
            self._catch_up()
            self._refresh_status()
            self.notify("Watching the config and hook scripts again.")
        else:
            self.reloader.pause()
            self._refresh_status()
            self.notify("Watching paused: saves are ignored until you resume (W) or reload (r).")

    def _journal_grew(self, _record: Record, _new: bool) -> None:
        """Wake once, soon, for a burst of records; an idle app runs no clock."""
        if self._wake_timer is None:
            self._wake_timer = self.set_timer(REFRESH_S, self._tick, name="app-wake")

    def _tick(self) -> None:
        self._wake_timer = None
        self._refresh_hooks()
        self._refresh_status()

    def _refresh_status(self) -> None:
        if self.reloader is None or self.session.read_only:
            watching = "off"
        elif self.reloader.paused:
            watching = "paused"
        else:
            watching = "on" if self.session.watch else "off"
        expression = self.engine.intercept_expression
        state = SessionState(
            source=config_shown(self.session.config_path),
            read_only=self.session.read_only,
            socket=None if self.listener is None else str(self.listener.address),
            watching=watching,
            intercept=expression and f"{expression} {INTERCEPT_AT[self.engine.gate.at]}",
            held=len(self.engine.held),
            approvals=len(self.engine.approvals.pending),
            reading=self._reading,
        )
        for line in self.query(StatusLine):
            line.show(state)

    def _run_failed(self, exchange: Exchange) -> bool:
        """Whether the exchange's host counts it as a failure (a Claude Code exit 2 that blocks
        is an answer); asked from the hooks panel's fold, which may run in a thread."""
        return host_named(exchange.host).run_failed(exchange)

    def _refresh_hooks(self) -> None:
        # `query`, not `query_one`: a timer or an engine callback may fire while the app is
        # shutting down and the panel is already gone
        for panel in self.query(HooksPanel):
            panel.refresh_rows()

    # ---- selection -------------------------------------------------------------------------

    @on(ExchangeList.Highlighted)
    @on(EventStream.Highlighted)
    def _show(self, message: ExchangeList.Highlighted | EventStream.Highlighted) -> None:
        """The detail pane follows the list the user is in; a list that merely follows its
        tail in the background does not take the pane away."""
        # A list that followed its tail just before the app exited posts this after Textual has
        # emptied the main screen: then there is nothing to show it in.
        events, panes = self.query(EventStream), self.query(DetailPane)
        if not events or not panes:
            return
        from_events = isinstance(message, EventStream.Highlighted)
        if from_events == events.first().has_focus:
            panes.first().show(message.record)

    @property
    def selected(self) -> Record | None:
        return self.query_one(ExchangeList).highlighted_record

    def _selected_exchange(self) -> Exchange | None:
        record = self.selected
        if isinstance(record, Exchange):
            return record
        self.notify("Select an exchange first.", severity="warning")
        return None

    # ---- filters ---------------------------------------------------------------------------

    # Focus moves now, not after the keys already queued (Widget.focus waits its turn): what is
    # typed right after `/` on a loaded machine lands in the field instead of running commands.
    def action_focus_filter(self) -> None:
        self.screen.set_focus(self.query_one("#filter", Input))

    def action_focus_intercept(self) -> None:
        self.screen.set_focus(self.query_one("#intercept", Input))

    @on(Input.Changed, "#filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        from inspector.filter import FilterError, compile_filter

        exchanges = [rows for rows in self._record_lists() if isinstance(rows, ExchangeList)]
        if not exchanges:  # the app is closing: its lists, and the filter's bar, are going
            return
        try:
            predicate = (
                compile_filter(event.value, exchanges[0].marked) if event.value.strip() else None
            )
        except FilterError as error:
            self._filter_problem(event.input, f"{error.message} (column {error.position + 1})")
            self._stop_filter_timer()  # the filter in effect stays, not a prefix typed on the way
            return
        self._filter_problem(event.input, "")
        # Typing refilters once it pauses, not per key: each refilter walks the whole session.
        self._stop_filter_timer()
        self._settling_filter = predicate
        self._filter_timer = self.set_timer(FILTER_SETTLE_S, self._settle_filter, name="filter")

    def _stop_filter_timer(self) -> None:
        if self._filter_timer is not None:
            self._filter_timer.stop()
            self._filter_timer = None

    def _settle_filter(self) -> None:
        self._stop_filter_timer()
        self._filter_predicate = self._settling_filter
        self._apply_filter()

    def _apply_filter(self) -> None:
        """The filter hides what does not match, or in highlight mode marks what does."""
        predicate = self._filter_predicate
        for records in self._record_lists():
            records.set_filter(None if self._highlighting else predicate)
            records.set_highlight(predicate if self._highlighting else None)

    def _record_lists(self) -> list[RecordList]:
        """The exchange list and the event stream, under any dialog; none while the app closes
        (a filter settling then finds nothing to filter)."""
        main = self.screen_stack[0] if self.screen_stack else None
        return [*main.query(ExchangeList), *main.query(EventStream)] if main else []

    def action_toggle_highlight(self) -> None:
        self._highlighting = not self._highlighting
        self._apply_filter()
        mode = "marks matching rows and hides none" if self._highlighting else "hides the rest"
        self.notify(f"The filter {mode}.")

    @on(Input.Submitted, "#filter")
    def _filter_submitted(self) -> None:
        if self._filter_timer is not None:  # enter does not wait for typing to settle
            self._settle_filter()
        self.query_one(ExchangeList).focus()

    @on(Input.Submitted, "#intercept")
    def _intercept_submitted(self, event: Input.Submitted) -> None:
        from inspector.filter import FilterError

        try:
            self.engine.set_intercept(event.value.strip() or None)
        except FilterError as error:
            self._filter_problem(event.input, f"{error.message} (column {error.position + 1})")
            return
        except InterceptTargetError as error:
            self._filter_problem(event.input, str(error))
            return
        self._filter_problem(event.input, "")
        self._refresh_status()
        self.notify(f"Intercept {intercept_state(self.engine.gate.at, event.value)}.")
        self.query_one(ExchangeList).focus()

    def _filter_problem(self, field: Input, problem: str) -> None:
        field.set_class(bool(problem), "-invalid")
        error = self.query_one("#filter-error", Label)
        error.update(problem)
        error.set_class(bool(problem), "-shown")

    # ---- compose, resend, held requests ----------------------------------------------------

    def action_detail_tab(self, tab: str) -> None:
        self.query_one(DetailPane).open_tab(tab)

    def action_search_detail(self) -> None:
        self.query_one(DetailPane).start_search()

    def action_step_tab(self, step: int) -> None:
        self.query_one(DetailPane).step_tab(step)

    def action_back_to_list(self) -> None:
        self.query_one(ExchangeList).focus()

    def on_key(self, event: events.Key) -> None:
        """A key no binding took: in a saved session, one that would send or hold on a live
        one says why it does nothing."""
        typing = isinstance(self.focused, (Input, TextArea))
        if not self.session.read_only or typing or self.screen is not self.screen_stack[0]:
            return
        binding = self._needs_hooks_bindings().get(event.key)
        if binding is not None:
            self.notify(
                f"{binding.description} needs running hooks; a saved session (open FILE) has "
                "none. Open its config (hook-inspector CONFIG) to send again.",
                severity="warning",
            )

    def _needs_hooks_bindings(self) -> dict[str, Binding]:
        """Key -> the app's binding that needs hooks, after the user's keymap."""
        found: dict[str, Binding] = {}
        for binding in self.BINDINGS:
            assert isinstance(binding, Binding)
            if binding.action in NEEDS_HOOKS:
                keys = self.settings.keymap.get(binding.id or "", binding.key)
                found.update((key.strip(), binding) for key in keys.split(",") if key.strip())
        return found

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A saved session offers nothing that needs hooks: such keys leave the footer. In a
        text field, or over the main screen, `/` and `i` are keys, not the commands."""
        if action in FOCUS_FIELD_ACTIONS:
            typing = isinstance(self.focused, (Input, TextArea))
            on_main = self.screen is self.screen_stack[0]
            return self._offered(action) and on_main and not typing
        return self._offered(action)

    def _offered(self, action: str) -> bool:
        return not (self.session.read_only and action in NEEDS_HOOKS)

    def action_compose_request(self) -> None:
        self._open_composer(None)

    def action_edit_selected(self) -> None:
        exchange = self._selected_exchange()
        if exchange is None or not isinstance(exchange.request, dict):
            return
        params = exchange.params
        initial = ComposeRequest(
            target=None if exchange.stage_entry else exchange.hook,  # the whole chain gets it
            method=exchange.method,
            params=params if isinstance(params, dict) else {},
            original=params if isinstance(params, dict) else None,
        )
        self._open_composer(initial, held=exchange if exchange.status == STATUS_HELD else None)

    def _open_composer(self, initial: ComposeRequest | None, held: Exchange | None = None) -> None:
        title = f"Held: {edit_effect(held)}" if held is not None else COMPOSE_TITLE

        def sent(request: ComposeRequest | None) -> None:
            if request is None:
                return
            if held is not None:
                self.engine.forward(held.seq, request.params)
            else:
                self._send(request)

        screen = ComposerScreen(self.engine.runtime.composer(), initial=initial, title=title)
        self.push_screen(screen, sent)

    @work(group="send", exit_on_error=False)
    async def _send(self, request: ComposeRequest) -> None:
        self._select_when_sent(self.engine.journal.records.last_seq())
        if request.target is None:
            await self.engine.send_through_pipeline(request.method, request.params)
        else:
            await self.engine.send_to_hook(request.target, request.method, request.params)

    def _select_when_sent(self, after: int) -> None:
        """The list's cursor goes to the first exchange the composer sends after `after`, as
        mitmproxy and Posting show a resent request's row, not the one it was edited from."""

        def sent(record: Record, new: bool) -> None:
            if not (new and isinstance(record, Exchange) and record.seq > after):
                return
            if record.source == COMPOSER_SOURCE:
                unsubscribe()
                self.call_later(self._select, record)

        unsubscribe = self.engine.journal.subscribe(sent)

    def _select(self, record: Record) -> None:
        for rows in self.query(ExchangeList):
            rows.select(record)

    def _held(self) -> Exchange | None:
        exchange = self._selected_exchange()
        if exchange is not None and exchange.status != STATUS_HELD:
            self.notify("The selected exchange is not held.", severity="warning")
            return None
        return exchange

    def action_forward(self) -> None:
        if held := self._held():
            self.engine.forward(held.seq)

    def action_drop(self) -> None:
        if held := self._held():
            self.engine.drop(held.seq)

    def action_forward_all(self) -> None:
        self.engine.forward_all()

    def action_clear_intercept(self) -> None:
        self.engine.clear_intercept()
        self.query_one("#intercept", Input).value = ""
        self._refresh_status()
        self.notify("Intercept cleared; every held request went on.")

    # ---- scenarios -------------------------------------------------------------------------

    def action_pick_scenario(self) -> None:
        from inspector.tui.screens.pick import PickScreen

        choices = scenarios_near(self.session.config_path)
        if not choices:
            self.notify("No scenario files next to the config.", severity="warning")
            return

        def picked(path: Path | None) -> None:
            if path is not None:
                self.play_scenario(path)

        self.push_screen(PickScreen("Run a scenario", choices), picked)

    @work(group="scenario", exit_on_error=False)
    async def play_scenario(self, path: Path) -> None:
        await self._play(path)

    async def _play(self, path: Path) -> None:
        from inspector.config.errors import ConfigError

        try:
            scenario = load_scenario(path)
            outcomes = await self.engine.runtime.turn_runner().run(scenario)
        except ConfigError as error:  # also a scenario naming a release the host does not know
            self.notify(str(error), title="Scenario not loaded", severity="error")
            return
        statuses = ", ".join(outcome.status for outcome in outcomes)
        self.notify(f"{scenario.name}: {statuses}", title="Scenario finished")

    # ---- approvals -------------------------------------------------------------------------

    def _approvals_changed(self) -> None:
        self._refresh_status()
        if not self._approval_open and self.engine.approvals.pending:
            self.call_later(self.action_next_approval)

    def action_answer_approval(self) -> None:
        if not self.engine.approvals.pending:
            self.notify("No approval is waiting for an answer.")
            return
        self.action_next_approval()

    def action_next_approval(self) -> None:
        pending = list(self.engine.approvals.pending)
        if self._approval_open or not pending:
            return
        prompt = pending[0]
        view = PromptView(
            tool=prompt.tool,
            arguments=prompt.arguments,
            agent_id=prompt.agent_id,
            session_key=prompt.session_key,
            turn_id=prompt.turn_id,
            severity=prompt.severity,
            earlier=[asdict(answer) for answer in prompt.earlier],
            deadline=prompt.deadline,
            timeout_s=prompt.timeout_s,
            on_timeout=prompt.on_timeout,
            queue_position=1,
            queue_length=len(pending),
            agent_asks=prompt.agent_asks,
        )

        def decided(verdict: Verdict | None) -> None:
            self._approval_open = False
            if verdict is not None:
                self.engine.approvals.decide(prompt.id, verdict)
            elif time.monotonic() < prompt.deadline and prompt in self.engine.approvals.pending:
                self.notify("Approval still pending: press p to answer it.", severity="warning")
                return
            self.call_later(self.action_next_approval)

        self._approval_open = True
        self.push_screen(ApprovalScreen(view), decided)

    def _journalled(self, record: Record, new: bool) -> None:
        if new and isinstance(record, Decision) and record.by == TIMEOUT:
            self.notify(timed_out_text(record), title="No answer in time", severity="warning")

    def action_rules(self) -> None:
        rules = [
            RuleView(
                id=rule.id,
                tool=rule.tool,
                arguments=rule.arguments,
                uses=rule.uses,
                created=rule.created,
            )
            for rule in self.engine.approvals.rules
        ]
        self.push_screen(RulesScreen(rules, revoke=self.engine.approvals.revoke))

    # ---- sessions --------------------------------------------------------------------------

    def action_save_journal(self) -> None:
        def chosen(path: Path | None) -> None:
            if path is None:
                return
            live = self.engine.writer
            if live is not None and path.resolve() == live.path.resolve():
                message = f"{path} is this session's own journal, written as the session goes"
                self.notify(message, title="Journal not saved", severity="warning")
                return
            try:
                writer = JsonlWriter(path)
            except JournalFileError as error:
                self.notify(str(error), title="Journal not saved", severity="error")
                return
            writer.attach(self.engine.journal).close()
            self.notify(f"Journal saved to {path} (readable by you only)")

        default = Path.cwd() / "hook-inspector-session.jsonl"
        self.push_screen(SaveAsScreen("Save the journal to", default), chosen)

    def action_replay(self) -> None:
        """Send a recorded session's requests to the hooks as they are now, and show what
        changed: this session (e.g. after editing a hook) or a saved journal."""
        from inspector.tui.screens.pick import PickScreen

        folder = (self.session.config_path or Path.cwd()).parent
        saved = sorted({*Path.cwd().glob("*.jsonl"), *folder.glob("*.jsonl")})
        choices = [THIS_SESSION, *saved]

        def picked(path: Path | None) -> None:
            if path is not None:
                self._replay(path)

        self.push_screen(PickScreen("Replay against the current hooks", choices), picked)

    @work(group="replay", exit_on_error=False)
    async def _replay(self, path: Path) -> None:
        from inspector.drivers.replay import replay
        from inspector.journal.jsonl import JournalLoadError
        from inspector.journal.saved import open_journal
        from inspector.tui.screens.replay_report import ReplayReportScreen

        if path == THIS_SESSION:
            records: Sequence[Record] = list(self.engine.journal.records)
        else:
            try:
                records = open_journal(path).records
            except JournalLoadError as error:
                self.notify(str(error), title="Journal not loaded", severity="error")
                return
        report = await replay(self.engine, records)
        await self.push_screen(ReplayReportScreen(f"Replay of {path.name}", report))

    def _one_liner(self) -> tuple[Exchange, str] | None:
        """The selected exchange and a shell command that replays it against its hook."""
        exchange = self._selected_exchange()
        if exchange is None or exchange.raw_request is None:
            return None
        one_liner = self.engine.runtime.one_liner(exchange)
        if one_liner is not None:
            return exchange, one_liner
        self.notify("That hook has no command to replay against.", severity="warning")
        return None

    def action_copy_shell(self) -> None:
        """Copy where copying works, and show the line too: a terminal may refuse the copy
        without a word."""
        found = self._one_liner()
        if found is None:
            return
        where = copy_text(self, found[1])
        self.notify(
            found[1],
            title=f"Copied to {where}; Y writes it to a file",
            timeout=COPIED_TOAST_S,
        )

    def action_copy_raw(self, side: str) -> None:
        """The exact line on the wire, as sent or as answered."""
        exchange = self._selected_exchange()
        if exchange is None:
            return
        line = exchange.raw_request if side == "request" else exchange.raw_response
        if line is None:
            self.notify(f"No {side} line went over the wire.", severity="warning")
            return
        where = copy_text(self, line)
        self.notify(f"Copied the raw {side} ({len(line):,} characters) to {where}.")

    def action_save_one_liner(self) -> None:
        found = self._one_liner()
        if found is None:
            return
        exchange, line = found

        def chosen(path: Path | None) -> None:
            if path is None:
                return
            try:
                write_private(path, [line])
            except JournalFileError as error:
                self.notify(str(error), title="One-liner not saved", severity="error")
                return
            self.notify(f"One-liner saved to {path} (readable by you only)")

        default = Path.cwd() / f"replay-{exchange.seq}.sh"
        self.push_screen(SaveAsScreen("Write the one-liner to", default), chosen)

    # ---- help and palette ------------------------------------------------------------------

    def action_manual(self) -> None:
        self.push_screen(ManualScreen())

    def action_help(self) -> None:
        """The focused panel's help and the keys active there."""
        focused = self.focused
        widget = focused
        while widget is not None and not getattr(widget, "HELP", None):
            widget = widget.parent  # type: ignore[assignment]
        text = getattr(widget, "HELP", None) or APP_HELP
        bindings = [
            (binding.key_display or binding.key, binding.description, binding.id or "")
            for (_, binding, enabled, _tooltip) in self.active_bindings.values()
            if enabled and binding.description
        ]
        self.push_screen(HelpScreen(title="Help", text=text, bindings=bindings))

    def get_system_commands(self, screen: Screen[Any]) -> Iterator[SystemCommand]:
        yield from super().get_system_commands(screen)
        keys = self._current_keys()
        for binding in self.BINDINGS:
            assert isinstance(binding, Binding)
            if binding.action == "quit":  # Textual's own Quit command is already there
                continue
            action = binding.action
            if not self._offered(action):
                continue
            key = keys.get(binding.id or "", binding.key)
            yield SystemCommand(
                binding.description,
                f"key {key} · binding id {binding.id}",
                lambda action=action: self.run_action(action),
            )

    def _current_keys(self) -> dict[str, str]:
        """Binding id -> the key(s) it is bound to now, after the user's keymap."""
        keys: dict[str, list[str]] = {}
        for key, active in self.active_bindings.items():
            if active.binding.id:
                keys.setdefault(active.binding.id, []).append(active.binding.key_display or key)
        return {binding_id: ", ".join(found) for binding_id, found in keys.items()}


def config_shown(path: Path | None) -> str:
    """The config as the status line names it: a path that names no folder (`.`, `..`: a
    project opened from inside it) by its absolute path."""
    if path is None:
        return "bundled demo"
    return str(path.resolve() if path.name in ("", "..") else path)


def timed_out_text(decision: Decision) -> str:
    """What an approval nobody answered came to, and the rule that decided it."""
    outcome = "allowed" if decision.verdict == ALLOW_ONCE else "denied"
    return (
        f"Approval of {decision.tool or 'a tool'} timed out and was {outcome}: {decision.reason}."
    )


def intercept_state(at: str, expression: str) -> str:
    """The intercept as the toast after setting it says it: where it holds, and what."""
    if not expression.strip():
        return "off"
    where = "on their way to each hook" if at == AT_HOOK else "at the agent's entry to each stage"
    return f"holding calls that match {expression.strip()!r} {where}"


APP_HELP = f"""\
## hook-inspector

The exchange list shows every request to every hook as it happens; the detail pane shows the
selected one (Request, Response, Diff, Raw, Stderr, Findings); the event stream below shows
runtime events, each stage's decision (who decided and why), hook stderr and hook starts and
exits. Stages: {", ".join(METHOD_FOR_STAGE.values())}.

Type a filter expression at the bottom to narrow the lists; the same language in the intercept
field holds matching calls at the agent's entry to their stage, before any hook (an edit is
what every hook and the agent get), or with `@hook EXPR` on their way to each hook (an edit is
what that hook alone gets): forward them (a), edit then forward (e), or drop them (x).
Methods known: {", ".join(sorted(STAGE_FOR_METHOD))}.
"""
