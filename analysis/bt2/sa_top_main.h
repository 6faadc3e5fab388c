/* synctrace-report --live URL ...: the live reader of `synctrace top`
 * (top.c); argv as main's. Returns the exit status. */
#ifndef SA_TOP_MAIN_H
#define SA_TOP_MAIN_H

int sa_top_main(int argc, char **argv);

#endif
