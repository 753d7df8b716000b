package dev.fakbattery.bench.serving;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

import com.sun.net.httpserver.HttpServer;

/**
 * A deliberately wrong "gateway" for the serving witness self-test: it answers every chat itself with a canned
 * completion and never asks the engine, so its "gateway sample" is not evidence about the engine behind it.
 */
public final class CannedGateway {

	static final String ANSWER = "{\"id\":\"chatcmpl-canned\",\"object\":\"chat.completion\",\"created\":1,\"model\":\"m\","
			+ "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"GLM52_OK\"},\"finish_reason\":\"stop\"}],"
			+ "\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":3,\"total_tokens\":8}}";

	private CannedGateway() {
	}

	public static void main(String[] args) throws IOException, InterruptedException {
		HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), Integer.parseInt(args[0])), 0);
		server.createContext("/", exchange -> {
			exchange.getRequestBody().readAllBytes();
			boolean models = exchange.getRequestURI().getPath().endsWith("/models");
			byte[] body = (models ? "{\"object\":\"list\",\"data\":[{\"id\":\"m\",\"object\":\"model\"}]}" : ANSWER)
					.getBytes(StandardCharsets.UTF_8);
			exchange.getResponseHeaders().set("Content-Type", "application/json");
			exchange.sendResponseHeaders(200, body.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(body);
			}
		});
		server.start();
		Thread.sleep(Long.MAX_VALUE);
	}
}
