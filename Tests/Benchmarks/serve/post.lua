-- wrk script: POST a chat message to the Rasa REST webhook, one sender per connection.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local counter = 0
function setup(thread)
  counter = counter + 1
  thread:set("id", counter)
end
function init(args)
  wrk.body = '{"sender":"bench-' .. id .. '","message":"' .. (args[1] or "/start") .. '"}'
end
