#!/usr/bin/env python3
"""The pyzmq peer of the JVM binding's interop tests (jvm/build.sh test starts it on the host, outside the trixie root).

It serves a CURVE ROUTER that echoes every message, and answers commands on a plain REP control socket:
  info                          -> "<router endpoint> <server public key> <client public key> <server certificate>"
  connect <endpoint> <key> [ms] -> connects a CURVE DEALER (its client keys) to a JVM ROUTER whose public key is <key>,
                                   sends "hello from pyzmq" and answers "ok <reply>", or "timeout" when no reply came
                                   within ms (10,000 by default)
  loadcert <path>               -> "<public key> <secret key or ->" read with zmq.auth.load_certificate
  quit                          -> "bye", then exits
Its keys are certificate files written by zmq.auth.create_certificates in the directory given as the first argument.
It prints "control <endpoint>" when ready and exits on its own after ten minutes at most.
"""
import os
import sys
import threading
import time

import zmq
import zmq.auth

cert_dir = sys.argv[1]
os.makedirs(cert_dir, exist_ok=True)
server_public_file, server_secret_file = zmq.auth.create_certificates(cert_dir, "pyzmq-server")
_, client_secret_file = zmq.auth.create_certificates(cert_dir, "pyzmq-client")
server_public, server_secret = zmq.auth.load_certificate(server_secret_file)
client_public, client_secret = zmq.auth.load_certificate(client_secret_file)

ctx = zmq.Context()
router = ctx.socket(zmq.ROUTER)
router.curve_server = True
router.curve_secretkey = server_secret
router.curve_publickey = server_public
router.linger = 0
router.bind("tcp://127.0.0.1:*")
router_endpoint = router.getsockopt_string(zmq.LAST_ENDPOINT)  # read before the echo thread owns the socket


def echo():
    try:
        while True:
            frames = router.recv_multipart()
            router.send_multipart([frames[0], b"echo:" + frames[-1]])
    except zmq.ContextTerminated:
        pass


threading.Thread(target=echo, daemon=True).start()

control = ctx.socket(zmq.REP)
control.linger = 0
control.rcvtimeo = 600_000
control.bind("tcp://127.0.0.1:*")
print("control " + control.getsockopt_string(zmq.LAST_ENDPOINT), flush=True)

deadline = time.monotonic() + 600
while time.monotonic() < deadline:
    try:
        words = control.recv_string().split()
    except zmq.Again:
        break
    if words[0] == "info":
        control.send_string("%s %s %s %s" % (router_endpoint, server_public.decode(),
                                             client_public.decode(), os.path.relpath(server_public_file)))
    elif words[0] == "connect":
        dealer = ctx.socket(zmq.DEALER)
        dealer.linger = 0
        dealer.rcvtimeo = int(words[3]) if len(words) > 3 else 10_000
        dealer.curve_serverkey = words[2].encode()
        dealer.curve_publickey = client_public
        dealer.curve_secretkey = client_secret
        dealer.connect(words[1])
        dealer.send(b"hello from pyzmq")
        try:
            control.send_string("ok " + dealer.recv_string())
        except zmq.Again:
            control.send_string("timeout")
        dealer.close()
    elif words[0] == "loadcert":
        public, secret = zmq.auth.load_certificate(words[1])
        control.send_string("%s %s" % (public.decode(), secret.decode() if secret else "-"))
    elif words[0] == "quit":
        control.send_string("bye")
        break
    else:
        control.send_string("unknown command")
ctx.destroy(linger=0)
