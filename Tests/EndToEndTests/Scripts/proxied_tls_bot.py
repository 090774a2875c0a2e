"""An HTTPS bot behind an HTTP CONNECT proxy, for the never-sent-twice test.

Arguments: bot port, proxy port, certificate, key, log file. The bot answers
every message but "second", on which it closes the connection without a word
(as a server that drops a kept-alive connection would); every message it
receives is appended to the log, one a line. The proxy answers CONNECT with
200 and then copies bytes both ways, as a corporate proxy does.
"""
import http.server
import json
import socket
import ssl
import sys
import threading

bot_port, proxy_port, certificate, key, log = sys.argv[1:6]
lock = threading.Lock()


class Bot(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        message = json.loads(body).get("message", "")
        with lock, open(log, "a") as out:
            out.write(message + "\n")
        if message == "second":
            self.close_connection = True
            return
        answer = json.dumps([{"text": "echo " + message}]).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)


def serve_bot():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", int(bot_port)), Bot)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(certificate, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    server.serve_forever()


def pipe(source, target):
    try:
        while True:
            data = source.recv(65536)
            if not data:
                break
            target.sendall(data)
    except OSError:
        pass
    finally:
        for end in (source, target):
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def tunnel(client):
    request = b""
    while b"\r\n\r\n" not in request:
        data = client.recv(4096)
        if not data:
            client.close()
            return
        request += data
    host, port = request.split(b" ")[1].decode().rsplit(":", 1)
    upstream = socket.create_connection((host, int(port)))
    client.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
    threading.Thread(target=pipe, args=(client, upstream), daemon=True).start()
    pipe(upstream, client)


threading.Thread(target=serve_bot, daemon=True).start()
proxy = socket.socket()
proxy.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
proxy.bind(("127.0.0.1", int(proxy_port)))
proxy.listen(16)
while True:
    connection, _ = proxy.accept()
    threading.Thread(target=tunnel, args=(connection,), daemon=True).start()
