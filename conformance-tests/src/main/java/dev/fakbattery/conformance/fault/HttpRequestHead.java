package dev.fakbattery.conformance.fault;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** One HTTP/1.1 request read from a socket: request line, headers, and the body (by length or chunked). */
record HttpRequestHead(String method, String path, Map<String, String> headers, byte[] body) {

	/** The next request, or null when the connection closed before one began. */
	static HttpRequestHead read(InputStream in) throws IOException {
		String requestLine = line(in);
		if (requestLine == null || requestLine.isEmpty()) {
			return null;
		}
		String[] parts = requestLine.split(" ");
		Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
		for (String line = line(in); line != null && !line.isEmpty(); line = line(in)) {
			int colon = line.indexOf(':');
			if (colon > 0) {
				headers.put(line.substring(0, colon).strip(), line.substring(colon + 1).strip());
			}
		}
		byte[] body;
		if ("chunked".equalsIgnoreCase(headers.getOrDefault("Transfer-Encoding", "").toLowerCase(Locale.ROOT))) {
			body = chunked(in);
		}
		else {
			body = in.readNBytes(Integer.parseInt(headers.getOrDefault("Content-Length", "0")));
		}
		return new HttpRequestHead(parts[0], parts.length > 1 ? parts[1] : "/", headers, body);
	}

	private static byte[] chunked(InputStream in) throws IOException {
		ByteArrayOutputStream body = new ByteArrayOutputStream();
		while (true) {
			String size = line(in);
			int length = Integer.parseInt(size.split(";")[0].strip(), 16);
			if (length == 0) {
				for (String trailer = line(in); trailer != null && !trailer.isEmpty(); trailer = line(in)) {
					// trailers ignored
				}
				return body.toByteArray();
			}
			body.write(in.readNBytes(length));
			line(in);
		}
	}

	/** A CRLF (or LF) terminated line in ISO-8859-1, or null at end of input. */
	private static String line(InputStream in) throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		int b;
		while ((b = in.read()) >= 0) {
			if (b == '\n') {
				byte[] bytes = line.toByteArray();
				int length = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
				return new String(bytes, 0, length, StandardCharsets.ISO_8859_1);
			}
			line.write(b);
		}
		return line.size() == 0 ? null : line.toString(StandardCharsets.ISO_8859_1);
	}
}
