"""`formulary-fsm claim`: give a conversation created with auth off to one API key (an admin action).

Once API_KEYS is set, a conversation created while auth was off (no owner) is visible to no key: nobody
proved it is theirs. An operator who knows whose it is hands it over explicitly:

    formulary-fsm claim --key-ids                           # the id of each key in API_KEYS
    formulary-fsm claim --conversation ID --key-id key:…    # give conversation ID to that key

Key ids are the digests the store keeps (never the keys themselves), so no secret is typed on a command
line. Only an ownerless conversation can be claimed: a conversation a key already owns is never moved.
"""

from __future__ import annotations

import argparse

from engine.config import load_settings
from engine.http.auth import owner_of_key
from engine.http.body import parse_conversation_id
from engine.http.errors import ApiError
from engine.wiring import open_store


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--conversation", metavar="ID", help="the ownerless conversation to claim")
    parser.add_argument("--key-id", metavar="KEY_ID", help="the key id (from --key-ids) that will own it")
    parser.add_argument("--key-ids", action="store_true", help="list the id of each key in API_KEYS and exit")


def key_ids(keys: frozenset[str]) -> dict[str, str]:
    """Key id → a hint that identifies the key to its operator without revealing it (its last 4 characters)."""
    return {owner_of_key(k): f"…{k[-4:]}" if len(k) >= 12 else "(short key)" for k in sorted(keys)}


def run(args: argparse.Namespace) -> int:
    settings = load_settings()
    ids = key_ids(settings.api_key_set)
    if args.key_ids:
        if not ids:
            raise SystemExit("formulary-fsm claim: API_KEYS is empty; set it to the keys of the deployment")
        for key_id, hint in ids.items():
            print(f"{key_id}  {hint}")
        return 0
    if not args.conversation or not args.key_id:
        raise SystemExit("formulary-fsm claim: give --conversation ID and --key-id KEY_ID (see --key-ids)")
    if args.key_id not in ids:
        raise SystemExit(f"formulary-fsm claim: {args.key_id!r} is not the id of a key in API_KEYS; "
                         "list them with `formulary-fsm claim --key-ids`")
    try:
        conversation_id = parse_conversation_id(args.conversation)
    except ApiError as exc:
        raise SystemExit(f"formulary-fsm claim: {exc.message}") from None
    store = open_store(settings)
    try:
        claimed = store.claim_owner(conversation_id, args.key_id)
    finally:
        store.close()
    if not claimed:
        raise SystemExit(f"formulary-fsm claim: no ownerless conversation {conversation_id} (it does not exist, "
                         "or a key already owns it)")
    print(f"conversation {conversation_id} now belongs to {args.key_id} ({ids[args.key_id]})")
    return 0
