/**
 * The battery's load engine: a workload's conversations ({@link dev.fakbattery.core.load.RequestSource},
 * {@link dev.fakbattery.core.load.Conversation}) in closed-loop ({@link dev.fakbattery.core.load.ClosedLoop}) and open-loop
 * ({@link dev.fakbattery.core.load.OpenLoop}, {@link dev.fakbattery.core.load.ArrivalSchedule}) runs of
 * streamed or non-streamed chat requests ({@link dev.fakbattery.core.load.ChatPayload}) against one
 * {@link dev.fakbattery.core.load.TargetClient} at a time, per-request timing
 * ({@link dev.fakbattery.core.load.StreamTimer}, {@link dev.fakbattery.core.load.RequestOutcome}) and
 * run statistics ({@link dev.fakbattery.core.load.LoadSummary}) under {@code vllm bench serve}'s names.
 *
 * <h2>Metrics and their names elsewhere</h2>
 * <table>
 * <caption>metric names</caption>
 * <tr><th>here (vLLM's name)</th><th>definition</th><th>GuideLLM</th><th>AIPerf</th></tr>
 * <tr><td>{@code ttft}</td><td>send to the first chunk carrying a token (content, reasoning, a tool-call
 * delta, or a rise of continuous usage); never a role-only chunk</td><td>time_to_first_token_ms</td>
 * <td>time_to_first_token</td></tr>
 * <tr><td>{@code e2el}</td><td>send to the last chunk carrying a token (not the usage chunk, not
 * [DONE]); non-stream: to the end of the body</td><td>request_latency</td><td>request_latency</td></tr>
 * <tr><td>{@code tpot}</td><td>(e2el - ttft) / (out - 1), out &gt; 1</td><td><b>inter_token_latency_ms</b>
 * (GuideLLM's TPOT is (last - start) / out, first token included)</td><td><b>inter_token_latency</b></td></tr>
 * <tr><td>{@code itl}</td><td>gap between consecutive token chunks, pooled over requests</td><td>-</td>
 * <td>inter_chunk_latency</td></tr>
 * <tr><td>{@code itl_per_token}</td><td>the chunk gap split evenly over the tokens continuous usage says
 * it carried (vllm#27485; PRs #28183, #42661); equals {@code itl} without continuous usage</td><td>-</td>
 * <td>-</td></tr>
 * <tr><td>{@code client_queue_time}</td><td>actual send - intended send (open loop: the precomputed
 * schedule; vllm#54101)</td><td>request_targeted_start_delay</td><td>-</td></tr>
 * <tr><td>{@code schedule_lag}</td><td>the scheduler's release time - intended time</td>
 * <td>scheduler diagnostics</td><td>schedule lag</td></tr>
 * <tr><td>{@code client_lag}</td><td>the client's own scheduling lag ({@link dev.fakbattery.core.load.ClientLagProbe});
 * an arm whose p99 exceeds 1 ms is invalid</td><td>-</td><td>-</td></tr>
 * <tr><td>{@code output_throughput}</td><td>completion tokens of successful requests / duration (first send
 * to last end)</td><td>output_tokens_per_second</td><td>output_token_throughput</td></tr>
 * <tr><td>{@code median_decode_tps}</td><td>per request: completion tokens / (last token - first token)</td>
 * <td>-</td><td>-</td></tr>
 * <tr><td>{@code request_goodput}</td><td>requests meeting every SLO ({@code <=}) / duration, SLO syntax
 * {@code ttft:200 tpot:50 e2el:1000}</td><td>-</td><td>goodput</td></tr>
 * </table>
 * Output tokens come from {@code usage.completion_tokens}; only without any usage are token chunks
 * counted, and such requests are flagged ({@code output_tokens_recounted}). Failed requests are
 * counted by HTTP status (0 = no response) and error, never dropped. Full text: {@code harness-api/METRICS.md}.
 *
 * @since 0.1
 */
package dev.fakbattery.core.load;
