"""cardgen serve: a live preview in the browser; every save shows in place."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Annotated, Optional

import typer

from .build import (BleedOption, CardSizeOption, PaperOption, SafeOption, card_size_of,
                    choose)
from .choice import (CardsOption, OptionOption, PlayersOption, PresetOption, RandomOption,
                     SeedOption, SpecialOption, TeamsOption, VariantOption, choice_from,
                     one_pack_for)
from .common import (DataOption, LanguageOption, PacksArgument, data_dir, finish, info,
                     use_edition, warn)

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def serve(
    packs: PacksArgument = None,
    host: Annotated[str, typer.Option(
        metavar="ADDRESS", help="Address to listen on. Only this computer can connect to "
        "127.0.0.1; any other address lets others on the network see your cards.")] =
        "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, metavar="N",
                                      help="Port (0: any free one).")] = 8000,
    open_browser: Annotated[bool, typer.Option("--open", help="Open the page in your web "
                                               "browser.")] = False,
    editor: Annotated[bool, typer.Option("--editor", help="A card's panel gets a button that "
                                         "opens $EDITOR at its line.")] = False,
    poll: Annotated[bool, typer.Option("--poll", help="Look for changes every half second "
                                       "instead of waiting for the system's file events "
                                       "(network drives, some containers).")] = False,
    paper: PaperOption = None,
    card_size: CardSizeOption = None,
    bleed: BleedOption = None,
    safe: SafeOption = None,
    data: DataOption = None,
    preset: PresetOption = None, cards: CardsOption = None, random: RandomOption = None,
    seed: SeedOption = None, special: SpecialOption = None, variant: VariantOption = None,
    option: OptionOption = None, players: PlayersOption = None, teams: TeamsOption = None,
    language: LanguageOption = None,
) -> None:
    """Preview packs in your browser: every card front and back, the boards, the rulebook's
    pages and every problem; each save shows in place. Ctrl-C stops.

    Click a card for its data, its layout and the line of its YAML.

    Examples:

      cardgen serve my-game                 # then open http://127.0.0.1:8000/

      cardgen serve my-game --open --editor # open the browser; cards open in $EDITOR

      cardgen serve crazy-hospital --preset balanced-32 --paper letter

      cardgen serve quartett --language en  # the English edition
    """
    use_edition(language)
    from ..diagnostics import Report
    from ..incremental.plan import select_packs
    paper = choose("--paper", paper, ("a4", "letter", "a3"))
    size, bleed, safe, print_shop = card_size_of(card_size, bleed, safe)
    chosen = (preset, cards, random, seed, special, variant, option, players, teams)
    choice = None
    if any(value not in (None, [], ()) for value in chosen):
        choice = choice_from(*chosen)
        one_pack_for(choice, packs)
    report = Report()
    folders = select_packs(data_dir(data), packs or [], report)
    settings = _settings(paper, size, bleed, safe, print_shop, report)
    if report.errors:
        finish(report, False)
    if host not in LOOPBACK:
        warn(f"--host {host}: anyone who can reach this computer at that address can see "
             "your cards (the preview has no password); use 127.0.0.1 to keep it to yourself")
    _run(folders, settings, choice, host, port, open_browser, editor, poll)


def _settings(paper, size, bleed, safe, print_shop, report):
    """The build settings the preview lays out with: the options, else the settings file's."""
    from ..load.settings import load_user_settings
    from ..model.settings import BuildSettings
    user = load_user_settings(report)
    return BuildSettings(paper=paper or user.paper, card_size=size, bleed=bleed, safe=safe,
                         print_shop=print_shop, duplex=user.duplex,
                         back_offset=user.back_offset, margin=user.margin)


def _run(folders: list[Path], settings, choice, host: str, port: int, open_browser: bool,
         editor: bool, poll: bool) -> None:
    """The server on its socket until Ctrl-C."""
    import socket

    import uvicorn

    from ..serve.server import Preview, app
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise typer.BadParameter(f"cannot listen on {host}:{port} ({exc.strerror or exc}); "
                                 "choose another --port (0: any free one)",
                                 param_hint="--port") from None
    port = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}/"
    names = ", ".join(f.name for f in folders)

    def ready() -> None:
        info(f"serving {names} at {url} (Ctrl-C to stop)")
        if open_browser:
            import webbrowser
            webbrowser.open(url)
    preview = Preview(folders, settings, choice, editor=editor, poll=poll, say=info,
                      on_ready=ready)
    config = uvicorn.Config(app(preview, host, port), log_level="warning", lifespan="on",
                            timeout_graceful_shutdown=1, access_log=False)
    try:
        with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C is how the preview ends
            uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()
    info("stopped serving")
