"""Discord's documented limits, enforced by the emulator as Discord does (400 / 50035).

Where Discord's OpenAPI description is looser than its documentation (content 4,000, choice
values 6,000), the documented limit is the one Discord enforces for a bot, so it is the one
the emulator enforces: every e2e test then catches a string the bot sends too long.
"""

from __future__ import annotations

import io
from typing import Any

import discord
import pytest

from emulator.errors import ApiError
from emulator.validation import check_choices, check_message, check_modal
from tests.emulator.conftest import World
from tests.emulator.sample_bot import SampleBot


def rejected(payload: dict[str, Any]) -> ApiError:
    with pytest.raises(ApiError) as err:
        check_message(payload, [], creating=True, size_limit=10_000_000)
    assert err.value.status == 400 and err.value.code == 50035
    return err.value


def button(label: str = "b", custom_id: str = "b") -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


def select(options: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"type": 1, "components": [{"type": 3, "custom_id": "s", "options": options,
                                       **extra}]}


def row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def test_content_is_2000_not_the_openapi_4000() -> None:
    check_message({"content": "x" * 2000}, [], creating=True, size_limit=1)
    assert "content" in str(rejected({"content": "x" * 2001}).errors)


def test_choice_values_are_100_not_the_openapi_6000() -> None:
    check_choices([{"name": "n" * 100, "value": "v" * 100}])
    for bad in ([{"name": "n", "value": "v" * 101}], [{"name": "n" * 101, "value": "v"}],
                [{"name": "", "value": "v"}], [{"name": "n", "value": str(i)} for i in range(26)],
                [{"name": "n"}]):
        with pytest.raises(ApiError) as err:
            check_choices(bad)
        assert err.value.code == 50035


def test_component_texts_and_counts() -> None:
    check_message({"components": [row(button("l" * 80, "c" * 100))]}, [], creating=True,
                  size_limit=1)
    rejected({"components": [row(button("l" * 81))]})
    rejected({"components": [row(button(custom_id="c" * 101))]})
    rejected({"components": [row(*(button(custom_id=str(i)) for i in range(6)))]})
    rejected({"components": [row(button(custom_id=str(i))) for i in range(6)]})
    ok_option = {"label": "l" * 100, "value": "v" * 100, "description": "d" * 100}
    check_message({"components": [select([ok_option], placeholder="p" * 150)]}, [],
                  creating=True, size_limit=1)
    for bad in ({**ok_option, "label": "l" * 101}, {**ok_option, "value": "v" * 101},
                {**ok_option, "description": "d" * 101}, {**ok_option, "value": ""},
                {**ok_option, "label": ""}):
        rejected({"components": [select([bad])]})
    rejected({"components": [select([ok_option], placeholder="p" * 151)]})
    many = [{"label": str(i), "value": str(i)} for i in range(26)]
    rejected({"components": [select(many)]})


def test_embed_limits() -> None:
    rejected({"embeds": [{"title": "t" * 257}]})
    rejected({"embeds": [{"description": "d" * 4097}]})
    rejected({"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]})
    rejected({"embeds": [{"fields": [{"name": "n" * 257, "value": "v"}]}]})
    rejected({"embeds": [{"fields": [{"name": "n", "value": "v" * 1025}]}]})
    rejected({"embeds": [{"footer": {"text": "f" * 2049}}]})
    rejected({"embeds": [{"author": {"name": "a" * 257}}]})
    rejected({"embeds": [{"description": "d" * 4000},
                         {"description": "d" * 2001}]})  # 6,001 in all


def test_attachment_description_is_1024() -> None:
    ok = {"attachments": [{"id": 0, "filename": "a.png", "description": "d" * 1024}]}
    check_message(ok, [1], creating=True, size_limit=10)
    with pytest.raises(ApiError) as err:
        check_message({"attachments": [{"id": 0, "filename": "a.png",
                                        "description": "d" * 1025}]}, [1], creating=True,
                      size_limit=10)
    assert err.value.code == 50035 and "attachments.0.description" in str(err.value.errors)


def test_modal_texts() -> None:
    text_input = {"type": 4, "custom_id": "i", "label": "l" * 45, "style": 1}
    check_modal({"custom_id": "m", "title": "t" * 45, "components": [row(text_input)]})
    for bad in ({"custom_id": "m", "title": "t" * 46, "components": [row(text_input)]},
                {"custom_id": "m", "title": "t",
                 "components": [row({**text_input, "label": "l" * 46})]},
                {"custom_id": "m", "title": "t",
                 "components": [row({**text_input, "placeholder": "p" * 101})]}):
        with pytest.raises(ApiError) as err:
            check_modal(bad)
        assert err.value.code == 50035


async def test_through_discord_py_attachment_and_thread_names(world: World,
                                                              bot: SampleBot) -> None:
    channel = bot.get_channel(int(world.general.id))
    assert isinstance(channel, discord.TextChannel)
    with pytest.raises(discord.HTTPException) as err:
        await channel.send(file=discord.File(io.BytesIO(b"x"), "a.txt",
                                             description="d" * 1025))
    assert err.value.status == 400 and err.value.code == 50035
    with pytest.raises(discord.HTTPException) as err:
        await channel.create_thread(name="n" * 101, type=discord.ChannelType.public_thread)
    assert err.value.code == 50035
    thread = await channel.create_thread(name="n" * 100, type=discord.ChannelType.public_thread)
    with pytest.raises(discord.HTTPException) as err:
        await thread.edit(name="m" * 101)
    assert err.value.code == 50035
    world.emu.assert_no_errors(allow=[50035])


async def test_command_choices_and_descriptions_are_checked_on_sync(emulator: Any) -> None:
    route = discord.http.Route("PUT", "/applications/{application_id}/commands",
                               application_id=emulator.application_id)
    too_long_value = [{"name": "c", "description": "d", "type": 1, "options": [
        {"name": "o", "description": "d", "type": 3,
         "choices": [{"name": "n", "value": "v" * 101}]}]}]
    too_long_description = [{"name": "c", "description": "d", "type": 1, "options": [
        {"name": "o", "description": "d" * 101, "type": 3}]}]
    http = discord.http.HTTPClient(discord.utils.MISSING)
    try:
        await http.static_login(emulator.bot_token)
        for body in (too_long_value, too_long_description):
            with pytest.raises(discord.HTTPException) as err:
                await http.request(route, json=body)
            assert err.value.code == 50035
    finally:
        await http.close()
