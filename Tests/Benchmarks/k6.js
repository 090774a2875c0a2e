// k6's side of `make bench`'s load comparison (Tests/Benchmarks/loadbench.py): each
// virtual user plays the conversation of Fixtures/load.yaml through the Rasa REST
// channel, as Locust's users do (locustfile.py): one POST per step, a new sender per
// conversation, the same bodies. k6 checks the status and that the body is a JSON
// array; migrant-chat checks every answer's text.
//
// LOAD_FIXTURE: the transcript whose `user:` lines are sent; LOAD_USERS and
// LOAD_SECONDS: virtual users (a closed model, like `replay --jobs N`) and duration.
import http from "k6/http";
import { check } from "k6";

const fixture = open(__ENV.LOAD_FIXTURE);
const steps = [...fixture.matchAll(/^\s*- user: (.+)$/gm)].map((match) =>
  match[1].trim().replace(/^"|"$/g, ""),
);

export const options = {
  vus: Number(__ENV.LOAD_USERS || 1),
  duration: `${__ENV.LOAD_SECONDS || 10}s`,
  summaryTrendStats: ["med", "p(90)", "p(99)", "p(99.9)", "max"],
};

const webhook = `${__ENV.LOAD_URL}/webhooks/rest/webhook`;
const headers = { "Content-Type": "application/json" };

export default function () {
  const sender = `k6-${__VU}-${__ITER}`;
  for (const text of steps) {
    const body = JSON.stringify({ sender, message: text, metadata: { language: "en" }, language: "en" });
    const response = http.post(webhook, body, { headers });
    const answered = check(response, {
      answered: (r) => r.status === 200 && String(r.body).startsWith("["),
    });
    if (!answered) return;
  }
}
