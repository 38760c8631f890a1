"""cardgen.model.outputs: the registry of outputs — what `--only` takes, what a plain build
makes, which outputs need the laid-out faces, and what in the pack each is drawn from."""

from __future__ import annotations

import re
from pathlib import Path

from cardgen.model.outputs import DEFAULT_KINDS, FACED_KINDS, ONLY_KINDS, OUTPUTS

# what a pack folder may hold (load.pack reads these; DESIGN.md's pack layout)
PACK_ENTRIES = {"pack.yaml", "cards", "layouts.yaml", "layouts", "images", "composition.yaml",
                "balance.yaml", "rules", "boards.yaml", "editions"}


def test_the_registry_is_what_the_manual_lists():
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    listed = re.search(r"`--only ([a-z|]+)`", readme)
    assert listed and tuple(listed.group(1).split("|")) == ONLY_KINDS
    assert ONLY_KINDS == ("cards", "printshop", "boards", "rulebook", "png", "calibration",
                          "contact", "tts", "tuckbox", "cut")
    assert DEFAULT_KINDS == ("cards", "printshop", "boards", "rulebook")
    assert FACED_KINDS == {"cards", "printshop", "png", "tts", "tuckbox", "cut", "changed"}
    assert "changed" in OUTPUTS and "changed" not in ONLY_KINDS  # comes with --changed-since


def test_each_output_is_named_by_its_key_and_drawn_from_the_pack_only():
    for name, output in OUTPUTS.items():
        assert output.name == name and output.files
        assert "pack.yaml" in output.inputs and "balance.yaml" in output.inputs, name
        assert set(output.inputs) <= PACK_ENTRIES, name
        assert len(set(output.inputs)) == len(output.inputs), name


def test_an_output_drawn_from_the_faces_is_drawn_from_everything_a_face_is_made_of():
    faced = {name: set(OUTPUTS[name].inputs) for name in FACED_KINDS}
    cards = set(OUTPUTS["cards"].inputs)
    assert {"cards", "layouts.yaml", "layouts", "images"} <= cards
    assert all(inputs == cards for inputs in faced.values())
    assert {"rules", "boards.yaml"} <= set(OUTPUTS["rulebook"].inputs)
    assert set(OUTPUTS["calibration"].inputs) == {"pack.yaml", "balance.yaml"}


def test_the_cli_offers_the_registry(cli, tmp_path):
    result = cli("build", "--data", tmp_path, "--only", "changed")
    assert result.exit_code == 2
    said = " ".join(result.output.replace("│", " ").split())
    assert f"'changed'; choose one of {', '.join(ONLY_KINDS)}" in said
