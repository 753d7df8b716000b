package dev.fakbattery.engine;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import dev.fakbattery.wire.Dialect;

/**
 * Runs every answer kind once through a private context of the server, over loopback, before the double serves:
 * on a cold JVM the first request otherwise loads a few hundred classes (Jackson, the HTTP server's streams, the
 * virtual-thread scheduler) inside its schedule, and its tokens come out a quarter second late, in one burst.
 * The warm-up uses its own counters and lag recorder, so nothing of it shows in the double's observations.
 *
 * @since 0.1
 */
final class Warmup {

	private static final String PATH = "/__engine_double_warmup";

	private static final List<String> BODIES = List.of(
			"{\"messages\":[{\"role\":\"user\",\"content\":\"warm up\"}],\"stream\":true,"
					+ "\"stream_options\":{\"include_usage\":true,\"continuous_usage_stats\":true}}",
			"{\"messages\":[{\"role\":\"user\",\"content\":\"warm up\"}],\"max_tokens\":2}",
			"{\"messages\":[{\"role\":\"user\",\"content\":\"CALL f {\\\"a\\\": \\\"b c\\\"}\"}],\"stream\":true,"
					+ "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"f\"}}]}");

	private Warmup() {
	}

	/** Serves {@link #BODIES} on a temporary context and requests each once; the context is removed afterwards. */
	static void run(HttpServer server, Wire wire, CompletionPlanner planner, String model) throws IOException {
		SchedulerState scratch = new SchedulerState(TimingModel.instant(), new Pacer(0), new LagRecorder(), new EngineCounters());
		var context = server.createContext(PATH, exchange -> answer(exchange, wire, planner, scratch));
		try {
			for (String body : BODIES) {
				request(server.getAddress(), body);
			}
		}
		finally {
			server.removeContext(context);
		}
		wire.streamErrorFrame();
		wire.errorBody(ApiError.badRequest("warm up"));
		MetricsPage.render(Dialect.VLLM, model, scratch.counters());
		MetricsPage.render(Dialect.SGLANG, model, scratch.counters());
		scratch.lag().snapshot();
	}

	private static void answer(HttpExchange exchange, Wire wire, CompletionPlanner planner, SchedulerState scratch) throws IOException {
		long arrival = System.nanoTime();
		try {
			EngineRequest request = EngineRequest.parse(exchange.getRequestBody().readAllBytes());
			var random = planner.random(request);
			Completion completion = planner.plan(request, wire, random);
			Turn turn = new Turn("warmup", 0, wire.responseModel(request), request, completion, 0);
			Generation generation = new Generation(turn, wire, Fault.none(), scratch, random.split(), arrival);
			if (request.stream()) {
				generation.stream(exchange);
			}
			else {
				generation.respond(exchange);
			}
		}
		catch (ApiError e) {
			throw new IllegalStateException("warm-up request rejected: " + e.getMessage(), e);
		}
	}

	/**
	 * A raw HTTP/1.1 request that reads the answer to the end, so the warm-up needs no HTTP client. Each read may wait
	 * 30 s, a guard against a hang only: at a load average near 30 on 2 cores (2026-12-02) 10 s once ran out.
	 */
	private static void request(InetSocketAddress address, String body) throws IOException {
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		try (Socket socket = new Socket(address.getAddress(), address.getPort())) {
			socket.setSoTimeout(30_000);
			OutputStream out = socket.getOutputStream();
			out.write(("POST " + PATH + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: application/json\r\n"
					+ "Content-Length: " + bytes.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
			out.write(bytes);
			out.flush();
			InputStream in = socket.getInputStream();
			in.transferTo(OutputStream.nullOutputStream());
		}
	}
}
