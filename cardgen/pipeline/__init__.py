"""The pipeline every command runs: chain.py holds the chain (load → check → compose → lay out
→ draw → write); faces.py the card faces of a build; draw.py the outputs; parallel.py the
work on several cores. Nothing heavy is imported here: a build with nothing to do stays quick.
"""
