"""A test RTSP server (GStreamer's RTSP server, through PyGObject, from
Debian's gir1.2-gst-rtsp-server-1.0): serves an H.264 Matroska file at
rtsp://127.0.0.1:<port>/clip, from its start for each client, as a camera
would; prints "ready <port>" once listening. Run with Debian's python3:
    /usr/bin/python3 test/helpers/rtsp-server.py <port> <file.mkv>
"""
import sys

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstRtspServer", "1.0")
from gi.repository import GLib, Gst, GstRtspServer  # noqa: E402

Gst.init(None)
port, path = sys.argv[1], sys.argv[2]
server = GstRtspServer.RTSPServer()
server.set_address("127.0.0.1")
server.set_service(port)
factory = GstRtspServer.RTSPMediaFactory()
factory.set_launch(
    f'( filesrc location="{path}" ! matroskademux ! h264parse ! rtph264pay name=pay0 pt=96 config-interval=1 )'
)
factory.set_shared(False)
server.get_mount_points().add_factory("/clip", factory)
if server.attach(None) == 0:
    sys.exit(f"cannot listen on port {port}")
print(f"ready {server.get_bound_port()}", flush=True)
GLib.MainLoop().run()
