"""The JSON layout the state pages' examples use (docs/state_json.md, docs/red_planet/state_json.md)."""
import json


def compact_json(obj, indent: int = 0) -> str:
    """JSON with objects one key a line and lists of scalars on one line (the docs' style);
    non-ASCII text (Red Planet's card names) as it is."""
    pad = "  " * (indent + 1)
    if isinstance(obj, dict) and obj and any(isinstance(v, (dict, list)) for v in obj.values()):
        items = [f"{pad}{json.dumps(k)}: {compact_json(v, indent + 1)}" for k, v in obj.items()]
        return "{\n" + ",\n".join(items) + "\n" + "  " * indent + "}"
    if isinstance(obj, list) and any(isinstance(v, (dict, list)) for v in obj):
        return "[\n" + ",\n".join(pad + compact_json(v, indent + 1) for v in obj) + "\n" + "  " * indent + "]"
    return json.dumps(obj, ensure_ascii=False)
