"""The live preview behind `cardgen serve`: a web server (server.py) that shows what the
resident pipeline (pipeline.resident) makes of a pack, the page it serves (pages.py), and the
events that tell it what changed (events.py: the pack's files watched, server-sent events).
No pipeline logic of its own: it asks the resident pipeline and shows the answer."""
