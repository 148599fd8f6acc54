import { Circle, Square, total } from "./shapes";

// largest returns the shape of largest area.
function largest(shapes: Square[]): Square {
  let best = shapes[0];
  for (const s of shapes) {
    if (s.area() > best.area()) {
      best = s;
    }
  }
  return best;
}

export function main(): void {
  const squares = [new Square(2), new Square(3)];
  const big = largest(squares);
  console.log(total([big, new Circle(1)]), JSON.stringify(big));
}
