/* brainfuck.ks as a C programmer writes it: bytes for cells, a switch on the instruction. */
#include <stdio.h>
#include <string.h>
#define TAPE 30000
static const char code[] = "-[>-[>-[>+<-]<-]<-]>>>";
static int jump[sizeof code], stack[sizeof code];
static unsigned char tape[TAPE];
int main(void) {
  int length = (int)strlen(code), depth = 0;
  for (int pc = 0; pc < length; pc++) {
    if (code[pc] == '[') stack[depth++] = pc;
    else if (code[pc] == ']') { depth--; jump[pc] = stack[depth]; jump[stack[depth]] = pc; }
  }
  long steps = 0;
  int ptr = 0;
  for (int pc = 0; pc < length; pc++, steps++) {
    switch (code[pc]) {
    case '+': tape[ptr]++; break;
    case '-': tape[ptr]--; break;
    case '>': ptr++; break;
    case '<': ptr--; break;
    case '[': if (tape[ptr] == 0) pc = jump[pc]; break;
    case ']': if (tape[ptr] != 0) pc = jump[pc]; break;
    }
  }
  printf("%ld\n%d\n", steps, tape[3]);
  return 0;
}
