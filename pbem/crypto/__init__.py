"""The secrets and signatures (docs/design.md "Secrets").

- `keys`: what the rest of pbem uses: canonical JSON, entry signatures, padded age
  envelopes (`seal`/`unseal`), commitments and the key files `pbem keygen` writes.
- `age`: age v1 files with X25519 and ssh-ed25519 recipients, written from the spec.
- `sshsig`: OpenSSH ed25519 keys and SSHSIG signatures (orders signatures).
- `sealed`: sealed secrets in the shared log: a commitment anyone sees, an envelope only
  the owner and the referee can open, a later reveal anyone can check.
"""
