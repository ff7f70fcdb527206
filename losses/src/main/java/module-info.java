/** Losses that compose with any head: CE, Gaussian CE, the number-token losses, CRPS and pinball. */
module io.regheads.losses {
    requires transitive io.regheads.core;
    requires org.apache.commons.numbers.gamma;

    exports io.regheads.losses;
}
