"""Discord's message limits, checked the way the real API rejects a request.

The limits are Discord's documented ones, which is what Discord enforces for a bot; where
the OpenAPI description (github.com/discord/discord-api-spec) is looser they are kept strict:
message content 2,000 (the OpenAPI allows 4,000 on create/edit), string choice values 100
(OpenAPI: 6,000), five action rows without IS_COMPONENTS_V2 (OpenAPI: 40 components).

Owns ``check_message`` (content, embeds, components, files: lengths, counts, unique
custom ids, non-empty messages, upload size) and ``check_choices`` (autocomplete
answers). A violation raises ``ApiError`` 400 / 50035 "Invalid Form Body" with an
``errors`` tree naming the offending field, so the bot sees what Discord would send.
"""

from __future__ import annotations

from typing import Any

from emulator.errors import ApiError, invalid_form
from emulator.records import COMPONENTS_V2

CONTENT_MAX = 2000
EMBEDS_MAX = 10
EMBED_TOTAL_MAX = 6000
FILES_MAX = 10
ACTION_ROWS_MAX = 5
ROW_BUTTONS_MAX = 5
V2_COMPONENTS_MAX = 40
V2_TEXT_MAX = 4000
CUSTOM_ID_MAX = 100
SELECT_OPTIONS_MAX = 25
CHOICES_MAX = 25
CHOICE_NAME_MAX = 100
CHOICE_VALUE_MAX = 100
BUTTON_LABEL_MAX = 80
BUTTON_URL_MAX = 512
SELECT_TEXT_MAX = 100
PLACEHOLDER_MAX = 150
ATTACHMENT_DESCRIPTION_MAX = 1024
ATTACHMENT_FILENAME_MAX = 1024
MODAL_TITLE_MAX = 45
TEXT_INPUT_LABEL_MAX = 45
TEXT_INPUT_VALUE_MAX = 4000
CHANNEL_NAME_MAX = 100

_SELECT_TYPES = (3, 5, 6, 7, 8)


class _Problems:
    def __init__(self) -> None:
        self.errors: dict[str, Any] = {}

    def add(self, path: str, code: str, message: str) -> None:
        entry = self.errors.setdefault(path, {"_errors": []})
        entry["_errors"].append({"code": code, "message": message})

    def too_long(self, path: str, value: Any, limit: int) -> None:
        if isinstance(value, str) and len(value) > limit:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")

    def bad_length(self, path: str, value: Any, low: int, high: int) -> None:
        """A required string of `low`..`high` characters."""
        if not isinstance(value, str) or not low <= len(value) <= high:
            self.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")

    def required(self, path: str, value: Any) -> None:
        if value is None or value == "":
            self.add(path, "BASE_TYPE_REQUIRED", "This field is required")

    def raise_if_any(self) -> None:
        if self.errors:
            raise ApiError(400, 50035, "Invalid Form Body", self.errors)


def check_message(
    payload: dict[str, Any],
    file_sizes: list[int],
    *,
    creating: bool,
    size_limit: int,
) -> None:
    """Reject a message create/edit payload the way Discord would."""
    if len(file_sizes) > FILES_MAX:
        raise invalid_form(
            "files", "BASE_TYPE_MAX_LENGTH", f"Must be {FILES_MAX} or fewer in length."
        )
    if any(size > size_limit for size in file_sizes):
        raise ApiError(413, 40005, "Request entity too large")

    p = _Problems()
    content = payload.get("content")
    p.too_long("content", content, CONTENT_MAX)
    embeds = payload.get("embeds") or []
    if len(embeds) > EMBEDS_MAX:
        p.add("embeds", "BASE_TYPE_MAX_LENGTH", f"Must be {EMBEDS_MAX} or fewer in length.")
    total = 0
    for i, embed in enumerate(embeds):
        total += _check_embed(p, f"embeds.{i}", embed)
    if total > EMBED_TOTAL_MAX:
        p.add("embeds", "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")

    for i, attachment in enumerate(payload.get("attachments") or []):
        if not isinstance(attachment, dict):
            continue
        p.too_long(f"attachments.{i}.description", attachment.get("description"),
                   ATTACHMENT_DESCRIPTION_MAX)
        p.too_long(f"attachments.{i}.filename", attachment.get("filename"),
                   ATTACHMENT_FILENAME_MAX)

    flags = int(payload.get("flags") or 0)
    components = payload.get("components") or []
    if flags & COMPONENTS_V2:
        if content:
            p.add(
                "content",
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "The 'content' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
            )
        if embeds:
            p.add(
                "embeds",
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "The 'embeds' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
            )
        _check_v2(p, components)
    else:
        _check_rows(p, components)
    _check_custom_ids(p, components)
    p.raise_if_any()

    if creating:
        has_body = bool(
            (content and str(content).strip())
            or embeds
            or components
            or file_sizes
            or payload.get("sticker_ids")
            or payload.get("poll")
        )
        if not has_body:
            raise ApiError(400, 50006, "Cannot send an empty message")


def _check_embed(p: _Problems, path: str, embed: dict[str, Any]) -> int:
    total = 0
    for key, limit in (("title", 256), ("description", 4096)):
        value = embed.get(key)
        p.too_long(f"{path}.{key}", value, limit)
        total += len(value) if isinstance(value, str) else 0
    fields = embed.get("fields") or []
    if len(fields) > 25:
        p.add(f"{path}.fields", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    for j, fld in enumerate(fields):
        name, value = fld.get("name"), fld.get("value")
        p.required(f"{path}.fields.{j}.name", name)
        p.required(f"{path}.fields.{j}.value", value)
        p.too_long(f"{path}.fields.{j}.name", name, 256)
        p.too_long(f"{path}.fields.{j}.value", value, 1024)
        total += len(str(name or "")) + len(str(value or ""))
    footer = embed.get("footer") or {}
    p.too_long(f"{path}.footer.text", footer.get("text"), 2048)
    total += len(str(footer.get("text") or ""))
    author = embed.get("author") or {}
    p.too_long(f"{path}.author.name", author.get("name"), 256)
    total += len(str(author.get("name") or ""))
    return total


def _check_rows(p: _Problems, rows: list[dict[str, Any]]) -> None:
    if len(rows) > ACTION_ROWS_MAX:
        p.add(
            "components", "BASE_TYPE_MAX_LENGTH", f"Must be {ACTION_ROWS_MAX} or fewer in length."
        )
    for i, row in enumerate(rows):
        path = f"components.{i}"
        if row.get("type") != 1:
            p.add(
                f"{path}.type",
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "Top-level components must be action rows without IS_COMPONENTS_V2",
            )
            continue
        children = row.get("components") or []
        if not children:
            p.add(f"{path}.components", "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")
        selects = [c for c in children if c.get("type") in _SELECT_TYPES]
        if selects and len(children) > 1:
            p.add(
                f"{path}.components",
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "A select menu must be alone in its action row",
            )
        if len(children) > ROW_BUTTONS_MAX:
            p.add(
                f"{path}.components",
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {ROW_BUTTONS_MAX} or fewer in length.",
            )
        for j, comp in enumerate(children):
            _check_interactive(p, f"{path}.components.{j}", comp)


def _check_v2(p: _Problems, components: list[dict[str, Any]]) -> None:
    count = 0
    text = 0
    stack = list(components)
    while stack:
        comp = stack.pop()
        count += 1
        if comp.get("type") == 10:
            text += len(str(comp.get("content") or ""))
        if comp.get("type") in (2, *_SELECT_TYPES):
            _check_interactive(p, "components", comp)
        stack.extend(comp.get("components") or [])
        for key in ("accessory", "component"):
            if isinstance(comp.get(key), dict):
                stack.append(comp[key])
    if count > V2_COMPONENTS_MAX:
        p.add(
            "components",
            "BASE_TYPE_MAX_LENGTH",
            f"A message may hold at most {V2_COMPONENTS_MAX} components",
        )
    if text > V2_TEXT_MAX:
        p.add(
            "components",
            "BASE_TYPE_MAX_LENGTH",
            f"Text displays may hold at most {V2_TEXT_MAX} characters in total",
        )


def _check_interactive(p: _Problems, path: str, comp: dict[str, Any]) -> None:
    kind = comp.get("type")
    if kind == 2:
        style = comp.get("style")
        if style == 5:
            p.required(f"{path}.url", comp.get("url"))
            p.too_long(f"{path}.url", comp.get("url"), BUTTON_URL_MAX)
        elif style != 6:
            p.required(f"{path}.custom_id", comp.get("custom_id"))
        p.too_long(f"{path}.label", comp.get("label"), BUTTON_LABEL_MAX)
        if not comp.get("label") and not comp.get("emoji"):
            p.add(
                f"{path}.label",
                "BUTTON_COMPONENT_MISSING_LABEL_OR_EMOJI",
                "A button needs a label or an emoji",
            )
    elif kind in _SELECT_TYPES:
        p.required(f"{path}.custom_id", comp.get("custom_id"))
        p.too_long(f"{path}.placeholder", comp.get("placeholder"), PLACEHOLDER_MAX)
        min_v = comp.get("min_values", 1)
        max_v = comp.get("max_values", 1)
        if not 0 <= min_v <= 25 or not 1 <= max_v <= 25 or min_v > max_v:
            p.add(f"{path}.max_values", "BASE_TYPE_BAD_INT", "min_values/max_values out of range")
        if kind == 3:
            options = comp.get("options") or []
            if not 1 <= len(options) <= SELECT_OPTIONS_MAX:
                p.add(
                    f"{path}.options",
                    "BASE_TYPE_BAD_LENGTH",
                    f"Must be between 1 and {SELECT_OPTIONS_MAX} in length.",
                )
            if max_v > len(options):
                p.add(
                    f"{path}.max_values",
                    "BASE_TYPE_MAX",
                    "max_values may not exceed the number of options",
                )
            values: set[str] = set()
            for k, opt in enumerate(options):
                p.bad_length(f"{path}.options.{k}.label", opt.get("label"), 1, SELECT_TEXT_MAX)
                p.bad_length(f"{path}.options.{k}.value", opt.get("value"), 1, SELECT_TEXT_MAX)
                p.too_long(
                    f"{path}.options.{k}.description", opt.get("description"), SELECT_TEXT_MAX
                )
                if opt.get("value") in values:
                    p.add(
                        f"{path}.options.{k}.value",
                        "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                        "Select option values must be unique",
                    )
                values.add(str(opt.get("value")))
    cid = comp.get("custom_id")
    if cid is not None:
        p.bad_length(f"{path}.custom_id", cid, 1, CUSTOM_ID_MAX)


def _check_custom_ids(p: _Problems, components: list[dict[str, Any]]) -> None:
    seen: set[str] = set()
    stack = list(components)
    while stack:
        comp = stack.pop()
        cid = comp.get("custom_id")
        if cid is not None:
            if cid in seen:
                p.add(
                    "components",
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    f"Component custom id cannot be duplicated ({cid!r})",
                )
            seen.add(cid)
        stack.extend(comp.get("components") or [])
        for key in ("accessory", "component"):
            if isinstance(comp.get(key), dict):
                stack.append(comp[key])


def check_choices(choices: Any) -> None:
    """Reject an autocomplete answer the way Discord would."""
    p = _Problems()
    if not isinstance(choices, list):
        p.add("data.choices", "BASE_TYPE_REQUIRED", "This field is required")
        p.raise_if_any()
        return
    if len(choices) > CHOICES_MAX:
        p.add("data.choices", "BASE_TYPE_MAX_LENGTH", f"Must be {CHOICES_MAX} or fewer in length.")
    for i, choice in enumerate(choices):
        _check_choice(p, f"data.choices.{i}", choice)
    p.raise_if_any()


def _check_choice(p: _Problems, path: str, choice: Any) -> None:
    """One choice (autocomplete answer or a command option's fixed choice): name 1-100,
    a string value at most 100 (the documented limit; the OpenAPI says 6,000)."""
    if not isinstance(choice, dict):
        p.add(path, "BASE_TYPE_REQUIRED", "This field is required")
        return
    p.bad_length(f"{path}.name", choice.get("name"), 1, CHOICE_NAME_MAX)
    value = choice.get("value")
    if value is None:
        p.required(f"{path}.value", value)
    elif isinstance(value, str):
        p.too_long(f"{path}.value", value, CHOICE_VALUE_MAX)


def check_command_choices(choices: Any, path: str) -> dict[str, Any]:
    """The problems (an ``errors`` tree, empty when none) of a command option's choices."""
    p = _Problems()
    if isinstance(choices, list):
        if len(choices) > CHOICES_MAX:
            p.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {CHOICES_MAX} or fewer in length.")
        for i, choice in enumerate(choices):
            _check_choice(p, f"{path}.{i}", choice)
    return p.errors


def check_channel_name(name: Any) -> None:
    """A channel or thread name: 1-100 characters."""
    p = _Problems()
    p.bad_length("name", name, 1, CHANNEL_NAME_MAX)
    p.raise_if_any()


def check_modal(data: dict[str, Any]) -> None:
    """Reject a modal the way Discord would (title, custom id, 1-5 components)."""
    p = _Problems()
    p.required("data.custom_id", data.get("custom_id"))
    p.too_long("data.custom_id", data.get("custom_id"), CUSTOM_ID_MAX)
    p.required("data.title", data.get("title"))
    p.too_long("data.title", data.get("title"), MODAL_TITLE_MAX)
    components = data.get("components") or []
    if not 1 <= len(components) <= 5:
        p.add("data.components", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
    for i, top in enumerate(components):
        inner = [(f"data.components.{i}.components.{j}", c)
                 for j, c in enumerate(top.get("components") or [])]
        if isinstance(top.get("component"), dict):
            inner.append((f"data.components.{i}.component", top["component"]))
        if top.get("type") == 18:
            p.too_long(f"data.components.{i}.label", top.get("label"), TEXT_INPUT_LABEL_MAX)
        for path, comp in inner:
            if comp.get("type") == 4:
                p.too_long(f"{path}.label", comp.get("label"), TEXT_INPUT_LABEL_MAX)
                p.too_long(f"{path}.placeholder", comp.get("placeholder"), SELECT_TEXT_MAX)
                p.too_long(f"{path}.value", comp.get("value"), TEXT_INPUT_VALUE_MAX)
                cid = comp.get("custom_id")
                p.bad_length(f"{path}.custom_id", cid, 1, CUSTOM_ID_MAX)
    p.raise_if_any()
