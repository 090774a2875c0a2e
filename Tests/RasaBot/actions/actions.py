"""Custom actions of the test bot: every answer in the language found in metadata.language."""
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


def language(tracker: Tracker) -> Text:
    metadata = tracker.latest_message.get("metadata") or {}
    code = str(metadata.get("language", "en"))[:2].lower()
    return code if code in ("en", "ru", "uk") else "en"


def topic_buttons(lang: Text) -> List[Dict[Text, Text]]:
    return [
        {"title": TEXTS["insurance_button"][lang], "payload": "/insurance"},
        {"title": TEXTS["housing_button"][lang], "payload": "/housing"},
    ]


class ActionGreet(Action):
    def name(self) -> Text:
        return "action_greet"

    def run(self, dispatcher: CollectingDispatcher, tracker: Tracker, domain: Dict[Text, Any]):
        lang = language(tracker)
        dispatcher.utter_message(text=TEXTS["greet"][lang], buttons=topic_buttons(lang))
        return []


class ActionInsurance(Action):
    def name(self) -> Text:
        return "action_insurance"

    def run(self, dispatcher: CollectingDispatcher, tracker: Tracker, domain: Dict[Text, Any]):
        lang = language(tracker)
        dispatcher.utter_message(text=TEXTS["insurance"][lang])
        dispatcher.utter_message(json_message={"contacts": [138508, "138503"]})
        dispatcher.utter_message(image="https://example.org/insurance-map.png")
        return [SlotSet("topic", "insurance")]


class ActionHousing(Action):
    def name(self) -> Text:
        return "action_housing"

    def run(self, dispatcher: CollectingDispatcher, tracker: Tracker, domain: Dict[Text, Any]):
        lang = language(tracker)
        dispatcher.utter_message(text=TEXTS["housing"][lang])
        dispatcher.utter_message(json_message={"contacts": [138512]})
        return [SlotSet("topic", "housing")]


class ActionDebug(Action):
    """Echoes what the bot received, so tests can see the language and sender travel."""

    def name(self) -> Text:
        return "action_debug"

    def run(self, dispatcher: CollectingDispatcher, tracker: Tracker, domain: Dict[Text, Any]):
        dispatcher.utter_message(text=f"language={language(tracker)} sender={tracker.sender_id}")
        return []


class ActionFallback(Action):
    def name(self) -> Text:
        return "action_fallback"

    def run(self, dispatcher: CollectingDispatcher, tracker: Tracker, domain: Dict[Text, Any]):
        lang = language(tracker)
        dispatcher.utter_message(text=TEXTS["fallback"][lang], buttons=topic_buttons(lang))
        return []
