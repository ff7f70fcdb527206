package io.regheads.core.internal;

import org.nd4j.linalg.api.concurrency.AffinityManager;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * What a host access must do so that the host and device copies of an array agree: nothing on ND4J's CPU backend;
 * on a device backend (CUDA), bring the newest data to the host before reading or writing host memory, and mark the
 * host copy as the newest after writing it, so that ND4J copies it to the device before the next device op.
 */
interface DeviceSync {

    /** Before any host read or write of {@code a}: the host copy exists and holds the newest data. */
    void beforeHostAccess(INDArray a);

    /** After a host write of {@code a}: the host copy is the newest. */
    void afterHostWrite(INDArray a);

    /** The CPU backend: host memory is the only memory. */
    DeviceSync NONE = new DeviceSync() {
        @Override
        public void beforeHostAccess(INDArray a) {}

        @Override
        public void afterHostWrite(INDArray a) {}

        @Override
        public String toString() {
            return "DeviceSync.NONE";
        }
    };

    /** Through ND4J's affinity manager: {@code ensureLocation(a, HOST)} before, {@code tagLocation(a, HOST)} after. */
    static DeviceSync affinity() {
        return new DeviceSync() {
            @Override
            public void beforeHostAccess(INDArray a) {
                Nd4j.getAffinityManager().ensureLocation(a, AffinityManager.Location.HOST);
            }

            @Override
            public void afterHostWrite(INDArray a) {
                Nd4j.getAffinityManager().tagLocation(a, AffinityManager.Location.HOST);
            }

            @Override
            public String toString() {
                return "DeviceSync.affinity";
            }
        };
    }

    /** {@link #NONE} on ND4J's CPU backend, {@link #affinity()} on any other. */
    static DeviceSync forBackend() {
        return Nd4j.getEnvironment().isCPU() ? NONE : affinity();
    }
}
