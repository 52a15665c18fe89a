package dev.switchboard.docs;

import dev.switchboard.docs.ReadmeFragments.Dictionary;
import dev.switchboard.docs.ReadmeFragments.Get;
import dev.switchboard.docs.ReadmeFragments.Put;
import dev.switchboard.monitor.Category;
import dev.switchboard.monitor.ReadersWriterMonitor;

/** The scaffold of the guide's section on monitors (the README's dictionary, bound another way). */
final class GuideMonitors {
    private GuideMonitors() {
    }

    static Dictionary bound() {
        Dictionary dictionary = new Dictionary();
        // tag::bind[]
        Category reads = Category.of("read", Get.class);          // tag messages by type, outside the actor
        Category writes = Category.of("write", Put.class);
        new ReadersWriterMonitor(reads, writes).bind(dictionary);  // before dictionary.start()
        // end::bind[]
        return dictionary;
    }
}
