/* The babeltrace2 plugin `synctrace`, with one sink component class:
 *   babeltrace2 --plugin-path=DIR TRACE -c sink.synctrace.report \
 *               [-p 'format="json",sort="hold",top=10']            */
#include <babeltrace2/babeltrace.h>

#include "sa_sink.h"

BT_PLUGIN_MODULE();

BT_PLUGIN(synctrace);
BT_PLUGIN_DESCRIPTION("synctrace: contention, wakes, races and spin reports");
BT_PLUGIN_AUTHOR("synctrace");
BT_PLUGIN_LICENSE("MIT");

BT_PLUGIN_SINK_COMPONENT_CLASS(report, sa_sink_consume);
BT_PLUGIN_SINK_COMPONENT_CLASS_DESCRIPTION(report,
	"Analyse synctrace events: summary, contention, wakes, races, spin "
	"(params: format=text|json|csv, sort=wait|contended|acquisitions|hold, top=N)");
BT_PLUGIN_SINK_COMPONENT_CLASS_INITIALIZE_METHOD(report, sa_sink_initialize);
BT_PLUGIN_SINK_COMPONENT_CLASS_GRAPH_IS_CONFIGURED_METHOD(report, sa_sink_graph_is_configured);
BT_PLUGIN_SINK_COMPONENT_CLASS_FINALIZE_METHOD(report, sa_sink_finalize);
