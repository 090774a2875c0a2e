"""Custom actions of the test bot: every answer in the language found in metadata.language."""
import os
from typing import Any, Dict, List, Text

from rasa_sdk import Action, Tracker
from rasa_sdk.events import SlotSet
from rasa_sdk.executor import CollectingDispatcher

TEXTS = {
    "greet": {"en": "Hello! What do you need help with?", "ru": "Здравствуйте! С чем вам помочь?",
              "uk": "Вітаю! З чим вам допомогти?"},
    "insurance": {"en": "These offices can help with health insurance:",
                  "ru": "С медицинской страховкой помогут:", "uk": "З медичним страхуванням допоможуть:"},
    "housing": {"en": "Always sign a written lease.", "ru": "Всегда подписывайте письменный договор.",
                "uk": "Завжди підписуйте письмовий договір."},
    "fallback": {"en": "Sorry, I did not understand. Choose a topic:",
                 "ru": "Извините, я не понял. Выберите тему:",
                 "uk": "Вибачте, я не зрозумів. Оберіть тему:"},
    "insurance_button": {"en": "Health insurance", "ru": "Медицинская страховка", "uk": "Медичне страхування"},
    "housing_button": {"en": "Housing", "ru": "Жильё", "uk": "Житло"},
}


# `rasa-tier.sh` restarts the action server with this set to plant defects for
# `migrant-chat explore` to find: a button to the fallback (every language), an
# English housing answer in Russian, an office the directory lacks in Ukrainian.
PLANTED = os.environ.get("MIGRANT_CHAT_PLANTED_DEFECTS") == "1"


def language(tracker: Tracker) -> Text:
    metadata = tracker.latest_message.get("metadata") or {}
    code = str(metadata.get("language", "en"))[:2].lower()
    return code if code in ("en", "ru", "uk") else "en"


def custom(tracker: Tracker, payload: Dict[Text, Any]) -> Dict[Text, Any]:
    """Custom JSON that reaches the user on both channels.

    Rasa's socketio channel emits custom JSON as `sio.emit(event, **json_message)`, so
    only a `data` key arrives (Rasa issue #5461); bots wrap it for that channel. The
    planted defects leave it unwrapped, as most bots do, for `replay --channel
    rest,socketio` to find.
    """
    if tracker.get_latest_input_channel() == "socketio" and not PLANTED:
        return {"data": payload}
    return payload


def topic_buttons(lang: Text) -> List[Dict[Text, Text]]:
    return [
        {"title": TEXTS["insurance_button"][lang], "payload": "/insurance"},
        {"title": TEXTS["housing_button"][lang], "payload": "/housing"},
    ]


def greet_buttons(lang: Text) -> List[Dict[Text, Text]]:
    visa = {"en": "Visa", "ru": "Виза", "uk": "Віза"}[lang]
    return topic_buttons(lang) + ([{"title": visa, "payload": "/nlu_fallback"}] if PLANTED else [])


class ActionGreet(Action):
    def name(self) -> Text:
        return "action_greet"

    def run(self, dispatcher: CollectingDispatcher, tracker: Tracker, domain: Dict[Text, Any]):
        lang = language(tracker)
        dispatcher.utter_message(text=TEXTS["greet"][lang], buttons=greet_buttons(lang))
        return []


class ActionInsurance(Action):
    def name(self) -> Text:
        return "action_insurance"

    def run(self, dispatcher: CollectingDispatcher, tracker: Tracker, domain: Dict[Text, Any]):
        lang = language(tracker)
        dispatcher.utter_message(text=TEXTS["insurance"][lang])
        contacts = [138508, "138503"] + ([999999] if PLANTED and lang == "uk" else [])
        dispatcher.utter_message(json_message=custom(tracker, {"contacts": contacts}))
        dispatcher.utter_message(image="https://example.org/insurance-map.png")
        return [SlotSet("topic", "insurance")]


class ActionHousing(Action):
    def name(self) -> Text:
        return "action_housing"

    def run(self, dispatcher: CollectingDispatcher, tracker: Tracker, domain: Dict[Text, Any]):
        lang = language(tracker)
        dispatcher.utter_message(text=TEXTS["housing"]["en" if PLANTED and lang == "ru" else lang])
        dispatcher.utter_message(json_message=custom(tracker, {"contacts": [138512]}))
        return [SlotSet("topic", "housing")]


class ActionDebug(Action):
    """Echoes what the bot received, so tests can see the language and sender travel."""

    def name(self) -> Text:
        return "action_debug"

    def run(self, dispatcher: CollectingDispatcher, tracker: Tracker, domain: Dict[Text, Any]):
        # The city slot and the message's `device` metadata when there are any: what a
        # Rasa Pro test case's fixtures and metadata set (Tests/RasaBot/tests/e2e-fixtures.yml).
        city = tracker.get_slot("city")
        device = (tracker.latest_message.get("metadata") or {}).get("device")
        text = f"language={language(tracker)} sender={tracker.sender_id}"
        text += f" city={city}" if city else ""
        text += f" device={device}" if device else ""
        dispatcher.utter_message(text=text)
        return []


class ActionFallback(Action):
    def name(self) -> Text:
        return "action_fallback"

    def run(self, dispatcher: CollectingDispatcher, tracker: Tracker, domain: Dict[Text, Any]):
        lang = language(tracker)
        dispatcher.utter_message(text=TEXTS["fallback"][lang], buttons=topic_buttons(lang))
        return []
