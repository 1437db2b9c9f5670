"""The mail code.

- `transport`: e-mail and nothing of games: building .eml messages, the outbox and its
  journal, SMTP out, mailboxes (maildir, mbox, IMAP) in.
- `loop`: the mail loop over `pbem.api`: reports out, orders in, deadlines, reminders,
  NMR, publishing (what `pbem mail`, `inbox`, `remind`, `tick` and `publish` do).
"""
