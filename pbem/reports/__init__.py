"""The turn reports.

- `context`: what a report says, for one reader: the window of steps, their events and
  dice, the reader's sealed values, the game's parts (or the neutral default tables), the
  orders templates; plain data, no jinja2.
- `render`: that context rendered by Jinja2 in one format (text, html, md, bbcode); the
  only module that imports jinja2 and markupsafe.
"""
