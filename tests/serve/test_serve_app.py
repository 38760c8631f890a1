"""`cardgen serve`'s web application, through Starlette's test client: what it serves, and what
it refuses (another Host, paths it did not make, writes)."""

from __future__ import annotations

import json
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from starlette.testclient import TestClient

from cardgen.layout import boards_preflight
from cardgen.load import source
from cardgen.model.settings import BuildSettings
from cardgen.serve.pages import page
from cardgen.serve.server import Preview, allowed_hosts, app, editor_command

BASE = "http://127.0.0.1:8123"


@pytest.fixture
def client(tmp_path, make_pack):
    before = source.MEMORY, boards_preflight.MEMORY
    pack = make_pack(tmp_path)
    preview = Preview([pack], BuildSettings(), editor=True, say=lambda text: None)
    with TestClient(app(preview, "127.0.0.1", 8123), base_url=BASE) as test_client:
        test_client.preview = preview
        yield test_client
    source.MEMORY, boards_preflight.MEMORY = before


def test_the_page_and_the_view(client):
    page_response = client.get("/")
    assert page_response.status_code == 200 and "cardgen serve" in page_response.text
    view = client.get("/api/view").json()
    assert view["pack"] == "mini" and len(view["cards"]) >= 4
    card = view["cards"][0]
    picture = client.get(f"/face/mini/{card['front']}.png")
    assert picture.status_code == 200 and picture.content.startswith(b"\x89PNG")
    assert "immutable" in picture.headers["cache-control"]
    details = client.get("/api/card", params={"id": card["id"]}).json()
    assert details["where"] == f"{card['file']}:{card['line']}" and "path" not in details


def test_another_host_is_refused(client):
    assert client.get("/", headers={"Host": "attacker.example:8123"}).status_code == 421
    assert client.get("/api/view", headers={"Host": "127.0.0.1:9999"}).status_code == 421
    assert client.get("/", headers={"Host": "localhost:8123"}).status_code == 200


@pytest.mark.parametrize("path", ["/face/mini/..%2F..%2Fpack.yaml.png", "/face/mini/abc.png",
                                  "/face/other/abc.png", "/page/mini/0000.png",
                                  "/cards/heroes.yaml", "/pack.yaml", "/static/../pack.yaml"])
def test_no_path_reaches_the_file_system(client, path):
    assert client.get(path).status_code == 404


def test_nothing_writes(client):
    for method in ("post", "put", "delete", "patch"):
        assert getattr(client, method)("/api/view").status_code == 405
    assert client.post("/api/open", params={"id": "A1"}).status_code == 403
    assert client.post("/api/open", params={"id": "A1"},
                       headers={"X-Cardgen-Token": "guess"}).status_code == 403


def test_unknown_pack_or_paper(client):
    assert client.get("/api/view", params={"pack": "nope"}).status_code == 404
    assert client.get("/api/view", params={"paper": "b5"}).status_code == 404
    assert client.get("/api/view", params={"paper": "letter"}).status_code == 200


def test_the_editor_opens_at_the_card_s_line(client, monkeypatch):
    opened = []
    monkeypatch.setattr("cardgen.serve.server.subprocess.Popen",
                        lambda command, **kw: opened.append(command))
    monkeypatch.setenv("EDITOR", "vim")
    monkeypatch.delenv("VISUAL", raising=False)
    response = client.post("/api/open", params={"id": "A2"},
                           headers={"X-Cardgen-Token": client.preview.token})
    assert response.status_code == 200
    assert opened[0][:2] == ["vim", "+18"] and opened[0][2].endswith("heroes.yaml")


def test_editor_commands(monkeypatch):
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", "code --wait")
    assert editor_command("/p/a.yaml", 3, 5) == ["code", "--wait", "--goto", "/p/a.yaml:3:5"]
    monkeypatch.setenv("EDITOR", "nano")
    assert editor_command("/p/a.yaml", 3, 5) == ["nano", "+3", "/p/a.yaml"]
    monkeypatch.delenv("EDITOR")
    assert editor_command("/p/a.yaml", 3, 5) is None


def test_allowed_hosts_name_the_port():
    assert allowed_hosts("127.0.0.1", 8000) == {"127.0.0.1:8000", "localhost:8000",
                                                "[::1]:8000"}
    assert "[::1]:9000" in allowed_hosts("::1", 9000)


def test_the_page_carries_its_data_as_data_not_markup():
    html = page(["</script><script>alert(1)</script>"], "")
    assert "</script><script>alert(1)" not in html
    start = html.index('<script id="packs" type="application/json">') + 43
    assert json.loads(html[start:html.index("</script>", start)]) == [
        "</script><script>alert(1)</script>"]


class _Watched(threading.Event):
    """An event that says when somebody starts waiting for it."""

    def __init__(self):
        super().__init__()
        self.waited = threading.Event()

    def wait(self, timeout=None):
        self.waited.set()
        return super().wait(timeout)


def test_a_face_being_drawn_is_served_when_drawn_not_after_the_worker_s_other_work(client):
    """After an edit the page is told first and the changed faces are drawn meanwhile: a
    request for one of them waits for that drawing, not for the pipeline's thread, which goes
    on with the documents (here: kept busy until the picture has come)."""
    key = client.get("/api/view").json()["cards"][0]["front"]
    resident = client.preview.residents["mini"]
    assert resident.held_png(key) is None
    busy = threading.Event()
    client.preview.worker.submit(busy.wait, 30)  # the pipeline's thread, at other work
    try:
        resident.expect_faces([key])
        watched = resident._coming[key] = _Watched()
        with ThreadPoolExecutor(1) as pool:
            asked = pool.submit(client.get, f"/face/mini/{key}.png")
            assert watched.waited.wait(10)  # the request waits for the face
            resident.draw_faces([key])
            picture = asked.result(timeout=10)
        assert picture.status_code == 200 and picture.content == resident.held_png(key)
        assert resident.coming(key) is None
    finally:
        busy.set()
