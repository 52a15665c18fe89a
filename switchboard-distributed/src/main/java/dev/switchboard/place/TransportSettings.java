package dev.switchboard.place;

import java.time.Duration;

/**
 * How a place's {@link Transport} bounds its connections: the outbound buffer, the handshakes, the failure detection.
 *
 * @param lowWater             the outbound buffer's low-water mark, in bytes
 * @param highWater            its high-water mark: above it, senders wait
 * @param overload             how long a sender waits for a full buffer to drain before it fails
 * @param handshakeTimeout     how long a connection may take over its handshake before it is closed
 * @param maxPendingHandshakes the most accepted connections in their handshake at once; more are closed
 * @param heartbeatInterval    how often each connection carries a heartbeat
 * @param failureTimeout       how long a connected place may send nothing before it is declared failed
 */
record TransportSettings(int lowWater, int highWater, Duration overload, Duration handshakeTimeout,
                         int maxPendingHandshakes, Duration heartbeatInterval, Duration failureTimeout) {
    static final TransportSettings DEFAULTS = new TransportSettings(256 << 10, 1 << 20, Duration.ofSeconds(10),
            Duration.ofSeconds(10), 16, Duration.ofSeconds(1), Duration.ofSeconds(10));

    /** These settings with another outbound buffer and overload bound. */
    TransportSettings withBuffer(int low, int high, Duration overloaded) {
        return new TransportSettings(low, high, overloaded, handshakeTimeout, maxPendingHandshakes, heartbeatInterval,
                failureTimeout);
    }

    /** These settings with another handshake timeout and bound on pending handshakes. */
    TransportSettings withHandshake(Duration timeout, int maxPending) {
        return new TransportSettings(lowWater, highWater, overload, timeout, maxPending, heartbeatInterval,
                failureTimeout);
    }

    /** These settings with another heartbeat interval and failure timeout. */
    TransportSettings withFailureDetection(Duration interval, Duration timeout) {
        if (interval.isNegative() || interval.isZero() || timeout.compareTo(interval.multipliedBy(2)) < 0) {
            throw new IllegalArgumentException("the failure timeout (" + timeout + ") must be at least twice the"
                    + " heartbeat interval (" + interval + "), which must be positive");
        }
        return new TransportSettings(lowWater, highWater, overload, handshakeTimeout, maxPendingHandshakes, interval,
                timeout);
    }
}
