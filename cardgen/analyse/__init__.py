"""Analyse stage: how a deck plays (reads the checked models, draws and writes nothing).

declaration.py  balance.yaml: loading it, and its checks against the pack
table.py        the duel table: cards, playable category values, who beats whom
measures.py     static measures: beat rates, strength, dominance, redundancy, leader, points
duel.py         one game of Werte stechen; sets.py one game of a sets variant (Mix It)
simulate.py     many seeded games and what they say
octets.py       octet values that make every group's octet worth the same
suggest.py      suggested points and penalties, and writing them into the card files
run.py          the chain: table → measures → simulations → suggestions
report.py       the result as JSON and as the terminal summary
verdict.py      the result in plain words, in the pack's language (balance.pdf's first page)
"""
